import { Alert, App, Button, Descriptions, Form, Input, Popconfirm, Radio, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import type { ExchangeAccount, ExchangeOverview, ExchangeSettingsBody } from '@shared/api';
import { LIMITS } from '@shared/limits';
import { CHARACTERISTIC_NAME_MAX } from '@shared/schemas/exchange';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { daysCount } from '@/components/format';
import { PageLoading } from '@/components/PageLoading';
import { PageTitle } from '@/components/PageTitle';
import { useMinWidth } from '@/components/useMinWidth';
import { emptyTable } from '../tableEmpty';
import { ExchangeMapping } from './ExchangeMapping';
import { ExchangeRuns } from './ExchangeRuns';
import { OrdersResend } from './OrdersResend';
import {
  useGetExchangeQuery,
  useGrantExchangeMutation,
  useRevokeExchangeMutation,
  useSaveExchangeSettingsMutation,
} from './exchangeAdminApi';
import { formatFileSize } from './fileSize';
import { EMAIL_RULES } from '@/components/emailRules';

/** Where 1С:УТ 11.5's exchange node is and what goes in it (README, «Обмен с 1С», says the same). */
function OneCSetup() {
  return (
    <>
      <Typography.Title level={3}>Что выбрать в 1С:Управление торговлей 11.5</Typography.Title>
      <Typography.Paragraph>
        «НСИ и администрирование» → «Интеграция с другими программами» → отметьте «Обмен с сайтами», затем «Обмены с
        сайтами» → «Создать» (в УНФ и Бухгалтерии 3.0 такой же узел в похожем меню):
      </Typography.Paragraph>
      <Typography.Paragraph>
        <ul>
          <li>
            «Адрес сайта» — адрес выше; «Пользователь» и «Пароль» — e-mail и пароль учётной записи из списка ниже;
          </li>
          <li>
            «Выгрузка товаров» — группы товаров, типы цен (тип 1С с таким же названием, как тип цен на сайте, заполняет
            его; остальные — после выбора в «Типах цен 1С»), склады, чьи остатки показывает сайт, и «Выгружать
            картинки»;
          </li>
          <li>
            «Обмен заказами» — включите: заказы сайта придут в 1С как «Заказ клиента», оплаты, отгрузки и отмены
            вернутся на сайт;
          </li>
          <li>
            выполните обмен один раз вручную («Выполнить обмен»), затем задайте расписание — обычно каждые 10–15 минут.
          </li>
        </ul>
      </Typography.Paragraph>
    </>
  );
}

interface GrantForm {
  email: string;
}

/** «Разрешить обмен учётной записи»: an existing account's e-mail; the server's 404 shows under the field. */
function GrantExchange() {
  const { message } = App.useApp();
  const [form] = Form.useForm<GrantForm>();
  const [grant, { isLoading }] = useGrantExchangeMutation();

  const submit = async ({ email }: GrantForm) => {
    try {
      const account = await grant(email.trim()).unwrap();
      form.resetFields();
      void message.success(`Обмен разрешён учётной записи ${account.email}`);
    } catch (error) {
      form.setFields([{ name: 'email', errors: [serverErrorDetail(error) ?? 'Не удалось разрешить обмен'] }]);
    }
  };

  return (
    <Form<GrantForm>
      form={form}
      layout="vertical"
      className="admin-form"
      requiredMark={false}
      onFinish={submit}
      aria-labelledby="exchange-grant"
    >
      <Typography.Title level={3} id="exchange-grant">
        Разрешить обмен учётной записи
      </Typography.Title>
      <Alert
        type="warning"
        showIcon
        title="Учётная запись с обменом видит все заказы магазина"
        description="1С входит на сайт под её e-mail и паролем и забирает заказы всех покупателей. Лучше зарегистрируйте для 1С отдельную учётную запись (например, 1c@ваш-магазин.ru) и разрешите обмен ей."
        style={{ marginBottom: 16 }}
      />
      <Form.Item
        label="E-mail учётной записи"
        name="email"
        extra="Учётная запись должна быть зарегистрирована на сайте; пароль у неё свой и здесь не показывается."
        validateTrigger={['onBlur', 'onSubmit']}
        rules={EMAIL_RULES}
      >
        <Input type="email" autoComplete="off" inputMode="email" maxLength={LIMITS.emailMax} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={isLoading}>
        Разрешить обмен
      </Button>
    </Form>
  );
}

/** The accounts 1С may sign in as, each with «Запретить обмен» (asked first). */
function ExchangeAccounts({ accounts }: { accounts: ExchangeAccount[] }) {
  const { message } = App.useApp();
  const [revoke] = useRevokeExchangeMutation();

  const revokeOne = async (account: ExchangeAccount) => {
    try {
      await revoke(account.id).unwrap();
      void message.success(`Учётной записи ${account.email} обмен запрещён`);
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось запретить обмен');
    }
  };

  const columns: TableProps<ExchangeAccount>['columns'] = [
    { title: 'Пользователь (e-mail)', dataIndex: 'email' },
    { title: 'Имя', dataIndex: 'name', render: (name: string | null) => name ?? '—' },
    {
      title: <span className="admin-visually-hidden">Доступ в бэк-офис</span>,
      key: 'manager',
      render: (_value, account) => account.is_manager && <Tag>Менеджер</Tag>,
    },
    {
      title: <span className="admin-visually-hidden">Действия</span>,
      key: 'revoke',
      render: (_value, account) => (
        <Popconfirm
          title={`Запретить обмен учётной записи ${account.email}?`}
          description="1С, которая входит под ней, больше не сможет обмениваться с сайтом."
          okText="Запретить"
          cancelText="Отмена"
          onConfirm={() => revokeOne(account)}
        >
          <Button size="small" danger aria-label={`Запретить обмен: ${account.email}`}>
            Запретить обмен
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <>
      <Typography.Title level={3}>Учётные записи для обмена</Typography.Title>
      <Typography.Paragraph type="secondary">
        В 1С «Пользователь» — e-mail учётной записи, «Пароль» — её пароль на сайте.
      </Typography.Paragraph>
      <Table<ExchangeAccount>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={accounts}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Обмен не разрешён ни одной учётной записи: 1С не сможет войти')}
      />
    </>
  );
}

/** «Подключение 1С»: what to type into 1С's exchange node and who may exchange. */
function Connection({ overview }: { overview: ExchangeOverview }) {
  // On a phone each value goes under its label: the address is long, and copied whole.
  const wide = useMinWidth(600);
  return (
    <section className="admin-section" aria-labelledby="exchange-connection">
      <Typography.Title level={2} id="exchange-connection">
        Подключение 1С
      </Typography.Title>
      <Descriptions
        bordered
        size="small"
        column={1}
        layout={wide ? 'horizontal' : 'vertical'}
        items={[
          {
            key: 'url',
            label: 'Адрес сайта для 1С',
            children: (
              <Typography.Text code copyable>
                {overview.url}
              </Typography.Text>
            ),
          },
          { key: 'limit', label: 'Наибольший файл за один запрос', children: formatFileSize(overview.file_limit) },
          {
            key: 'ips',
            label: 'Адреса, с которых 1С может обмениваться',
            children: overview.allowed_ips.length ? overview.allowed_ips.join(', ') : 'любые',
          },
          { key: 'keep', label: 'Файлы обменов хранятся', children: daysCount(overview.files_keep_days) },
        ]}
      />
      <OneCSetup />
      <ExchangeAccounts accounts={overview.accounts} />
      <GrantExchange />
    </section>
  );
}

const MISSING_PRODUCTS_OPTIONS: { value: ExchangeSettingsBody['missing_products']; label: string }[] = [
  { value: 'leave', label: 'Оставлять как есть' },
  { value: 'hide', label: 'Скрывать с витрины' },
];

const characteristicRules = (what: string) => [
  { required: true, whitespace: true, message: `Укажите характеристику ${what}` },
];

/** «Настройки»: which 1С characteristics are a variant's colour and size, and what a full exchange does to the rest. */
function ExchangeSettings({ settings }: { settings: ExchangeSettingsBody }) {
  const { message } = App.useApp();
  const [save, { isLoading }] = useSaveExchangeSettingsMutation();

  const submit = async (values: ExchangeSettingsBody) => {
    try {
      await save({
        color_characteristic: values.color_characteristic.trim(),
        size_characteristic: values.size_characteristic.trim(),
        missing_products: values.missing_products,
      }).unwrap();
      void message.success('Настройки обмена сохранены');
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? 'Не удалось сохранить настройки обмена');
    }
  };

  return (
    <section className="admin-section" aria-labelledby="exchange-settings">
      <Typography.Title level={2} id="exchange-settings">
        Настройки
      </Typography.Title>
      <Form<ExchangeSettingsBody>
        layout="vertical"
        className="admin-form"
        requiredMark={false}
        initialValues={settings}
        onFinish={submit}
      >
        <Form.Item
          label="Характеристика 1С — цвет"
          name="color_characteristic"
          extra="Как характеристика названа в 1С, например «Цвет игрушки»"
          rules={characteristicRules('цвета')}
        >
          <Input maxLength={CHARACTERISTIC_NAME_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="Характеристика 1С — размер"
          name="size_characteristic"
          extra="Размер — первое целое число значения, например «Рост, см»"
          rules={characteristicRules('размера')}
        >
          <Input maxLength={CHARACTERISTIC_NAME_MAX} autoComplete="off" />
        </Form.Item>
        <Form.Item label="Товары 1С, которых нет в полной выгрузке" name="missing_products">
          <Radio.Group options={MISSING_PRODUCTS_OPTIONS} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={isLoading}>
          Сохранить
        </Button>
      </Form>
    </section>
  );
}

/** Обмен с 1С: the connection, its settings, 1С's price types and warehouses, the exchanges made and «send again». */
export function ExchangePage() {
  const { data: overview, isLoading, isError, refetch } = useGetExchangeQuery();

  const head = (
    <>
      <PageTitle name="Обмен с 1С" />
      <div className="admin-page-head">
        <Typography.Title>Обмен с 1С</Typography.Title>
      </div>
    </>
  );
  if (isLoading) return <PageLoading />;
  if (isError || !overview) {
    return (
      <>
        {head}
        <Alert
          type="error"
          showIcon
          title="Не удалось загрузить обмен с 1С"
          action={<Button onClick={() => void refetch()}>Повторить</Button>}
        />
      </>
    );
  }
  return (
    <>
      {head}
      <Typography.Paragraph type="secondary">
        1С:Управление торговлей присылает каталог, цены и остатки и забирает заказы сайта через свой узел «Обмен с
        сайтами» — устанавливать в 1С ничего не нужно.
      </Typography.Paragraph>
      <Connection overview={overview} />
      <ExchangeSettings settings={overview.settings} />
      <ExchangeMapping priceTypes={overview.price_types} warehouses={overview.warehouses} />
      <ExchangeRuns filesKeepDays={overview.files_keep_days} />
      <OrdersResend pending={overview.pending_orders} />
    </>
  );
}
