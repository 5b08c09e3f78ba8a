import {
  App,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Switch,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import type { PriceType, PriceTypeFields, PriceTypePatch } from '@shared/api';
import { CATALOGUE_LIMITS } from '@shared/catalogue';
import { formatRubles } from '@shared/money';
import { PRICE_TYPE_NAME_MAX } from '@shared/schemas/price-types';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { CatalogueList, RowActions, useRowAction } from '../catalogue/CatalogueList';
import { EditDialog } from '../catalogue/EditDialog';
import {
  useCreatePriceTypeMutation,
  useDeletePriceTypeMutation,
  useGetPriceTypesQuery,
  useGetStorefrontSettingsQuery,
  useSaveStorefrontSettingsMutation,
  useUpdatePriceTypeMutation,
} from './pricesAdminApi';

interface PriceTypeForm {
  name: string;
  is_rrp: boolean;
  /** Not asked of a РРЦ, which is never ordered by. */
  min_order_sum?: number | null;
}

const minOrderSumRules = [
  { required: true, message: 'Укажите сумму; 0 — без минимума' },
  {
    type: 'number' as const,
    min: 0,
    max: CATALOGUE_LIMITS.priceMax,
    message: `Сумма — от 0 до ${formatRubles(CATALOGUE_LIMITS.priceMax)}`,
  },
  {
    validator: async (_rule: unknown, sum?: number | null) => {
      if (typeof sum === 'number' && Number(sum.toFixed(2)) !== sum)
        throw new Error('Сумма указывается в рублях с копейками, не точнее');
    },
  },
];

/** What the dialog sends: all of a new type; only what changed of an existing one. */
function priceTypeFields({ name, is_rrp, min_order_sum }: PriceTypeForm): PriceTypeFields {
  return { name: name.trim(), is_rrp, ...(is_rrp ? {} : { min_order_sum: min_order_sum ?? 0 }) };
}

function priceTypeChanges(type: PriceType, values: PriceTypeForm): PriceTypePatch {
  return Object.fromEntries(
    Object.entries(priceTypeFields(values)).filter(([key, value]) => type[key as keyof PriceTypePatch] !== value),
  );
}

// Mounted afresh for each opening, so its form starts from the type being changed.
function PriceTypeDialog({ type, onClose }: { type?: PriceType; onClose(): void }) {
  const [create, creating] = useCreatePriceTypeMutation();
  const [update, updating] = useUpdatePriceTypeMutation();

  const save = async (values: PriceTypeForm) => {
    if (!type) {
      await create(priceTypeFields(values)).unwrap();
      return 'Тип цен добавлен';
    }
    const patch = priceTypeChanges(type, values);
    if (!Object.keys(patch).length) return null;
    await update({ id: type.id, patch }).unwrap();
    return 'Тип цен сохранён';
  };

  return (
    <EditDialog<PriceTypeForm>
      title={type ? `Тип цен «${type.name}»` : 'Новый тип цен'}
      initialValues={type ?? { is_rrp: false, min_order_sum: 0 }}
      saving={creating.isLoading || updating.isLoading}
      save={save}
      failureText="Не удалось сохранить тип цен"
      onClose={onClose}
    >
      <Form.Item
        label="Название"
        name="name"
        extra={type ? `Код ${type.code} не меняется: по нему тип узнают прайс-лист и обмен с 1С` : undefined}
        rules={[{ required: true, whitespace: true, message: 'Укажите название' }]}
      >
        <Input maxLength={PRICE_TYPE_NAME_MAX} autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="Рекомендованная розничная цена (РРЦ)"
        name="is_rrp"
        valuePropName="checked"
        extra="По ней не продают и её не назначают компаниям: покупатели видят её рядом со своей ценой"
      >
        <Switch disabled={type?.is_default} />
      </Form.Item>
      <Form.Item noStyle dependencies={['is_rrp']}>
        {({ getFieldValue }) =>
          !getFieldValue('is_rrp') && (
            <Form.Item
              label="Минимальная сумма заказа, ₽"
              name="min_order_sum"
              rules={minOrderSumRules}
              extra="Заказ покупателя этого типа меньше этой суммы не оформляется; 0 — без минимума"
            >
              <InputNumber controls={false} decimalSeparator="," style={{ width: 200 }} />
            </Form.Item>
          )
        }
      </Form.Item>
    </EditDialog>
  );
}

/** «Цены только после входа»: whether visitors see the default type's prices, saved at once. */
function VisitorPrices({ defaultType }: { defaultType?: PriceType }) {
  const { message } = App.useApp();
  const { data: settings, isFetching, isError } = useGetStorefrontSettingsQuery();
  const [saveSettings, { isLoading: saving }] = useSaveStorefrontSettingsMutation();
  const onlySignedIn = settings ? !settings.prices_for_visitors : false;
  const change = async (hide: boolean) => {
    try {
      await saveSettings({ prices_for_visitors: !hide }).unwrap();
      message.success(hide ? 'Цены скрыты от гостей' : 'Гости снова видят цены');
    } catch (error) {
      message.error(serverErrorDetail(error) ?? 'Не удалось сохранить настройку');
    }
  };
  const explanation = isError
    ? 'Не удалось загрузить настройку'
    : onlySignedIn
      ? 'Гости видят каталог без цен: цены на витрине, в прайс-листе и фидах — только покупателям после входа'
      : `Гости видят цены типа по умолчанию${defaultType ? ` («${defaultType.name}»)` : ''}`;
  return (
    <section className="admin-section" aria-labelledby="visitor-prices">
      <Typography.Title level={2} id="visitor-prices">
        Цены на витрине
      </Typography.Title>
      <Flex vertical gap={4} align="start">
        <Flex gap={8} align="center">
          <Switch
            id="prices-after-sign-in"
            checked={onlySignedIn}
            disabled={!settings}
            loading={isFetching || saving}
            onChange={change}
            aria-describedby="prices-after-sign-in-hint"
          />
          <label htmlFor="prices-after-sign-in">Показывать цены только после входа</label>
        </Flex>
        <Typography.Text type={isError ? 'danger' : 'secondary'} id="prices-after-sign-in-hint">
          {explanation}
        </Typography.Text>
      </Flex>
    </section>
  );
}

/** «По умолчанию» for a type that can be (not already, not a РРЦ), asked first: guests and many companies buy by it. */
function MakeDefault({ type, onConfirm }: { type: PriceType; onConfirm(): void }) {
  if (type.is_default || type.is_rrp) return null;
  return (
    <Popconfirm
      title={`Сделать «${type.name}» типом по умолчанию?`}
      description="По нему будут покупать гости и компании без назначенного типа цен."
      okText="Сделать"
      cancelText="Отмена"
      onConfirm={onConfirm}
    >
      <Button size="small" aria-label={`Сделать по умолчанию: ${type.name}`}>
        Сделать по умолчанию
      </Button>
    </Popconfirm>
  );
}

/** Типы цен: the supplier's price types, the default one for guests and unassigned companies, and who sees prices. */
export function PriceTypesPage() {
  const { data: types, isFetching, isError } = useGetPriceTypesQuery();
  const [update] = useUpdatePriceTypeMutation();
  const [remove] = useDeletePriceTypeMutation();
  const [editing, setEditing] = useState<{ type?: PriceType } | null>(null);
  const { attempt, failure, dismissFailure } = useRowAction();

  const columns: TableColumnsType<PriceType> = [
    {
      title: 'Название',
      key: 'name',
      render: (_value, type) => (
        <Flex gap={8} wrap align="center">
          {type.name}
          {type.is_default && <Tag color="processing">По умолчанию</Tag>}
          {type.is_rrp && <Tag>РРЦ</Tag>}
        </Flex>
      ),
    },
    { title: 'Код', dataIndex: 'code' },
    {
      title: 'Минимальная сумма заказа',
      key: 'min_order_sum',
      align: 'right',
      render: (_value, type) =>
        type.is_rrp ? '—' : type.min_order_sum ? formatRubles(type.min_order_sum) : 'Без минимума',
    },
    { title: 'Компаний', dataIndex: 'companies_count', align: 'right' },
    {
      title: 'Действия',
      key: 'actions',
      render: (_value, type) => (
        <Flex gap="small" align="center">
          <MakeDefault
            type={type}
            onConfirm={() =>
              attempt(
                () => update({ id: type.id, patch: { is_default: true } }).unwrap(),
                `«${type.name}» — тип цен по умолчанию`,
                'Не удалось сменить тип по умолчанию',
              )
            }
          />
          <RowActions
            editLabel={`Изменить тип цен «${type.name}»`}
            deleteLabel={`Удалить тип цен «${type.name}»`}
            confirmDelete={`Удалить тип цен «${type.name}»? Цены этого типа у товаров удалятся.`}
            onEdit={() => setEditing({ type })}
            onDelete={() =>
              attempt(() => remove(type.id).unwrap(), `Тип цен «${type.name}» удалён`, 'Не удалось удалить тип цен')
            }
          />
        </Flex>
      ),
    },
  ];

  return (
    <CatalogueList
      title="Типы цен"
      addLabel="Добавить тип цен"
      onAdd={() => setEditing({})}
      loadFailure={isError ? 'Не удалось загрузить типы цен' : undefined}
      failure={failure}
      onDismissFailure={dismissFailure}
      columns={columns}
      rows={types}
      loading={isFetching}
      emptyText="Типов цен нет"
    >
      <VisitorPrices defaultType={types?.find(({ is_default }) => is_default)} />
      {editing && <PriceTypeDialog type={editing.type} onClose={() => setEditing(null)} />}
    </CatalogueList>
  );
}
