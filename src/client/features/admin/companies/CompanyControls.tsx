import { App, Button, Flex, Popconfirm, Select, Switch, Typography } from 'antd';
import { useState } from 'react';
import type { AdminCompany, AdminCompanyPatch } from '@shared/api';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useGetPriceTypesQuery } from '../prices/pricesAdminApi';
import { useGetStaffQuery, useUpdateCompanyMutation } from './companiesAdminApi';
import { CompanyMergeDialog } from './CompanyMergeDialog';

/** The manager Select's «Не назначен»: staff ids start at 1. */
const NO_MANAGER = 0;

/** Saves a change of the company, telling the manager when the server refuses it. */
function useCompanyChange(company: AdminCompany, failureText: string) {
  const { message } = App.useApp();
  const [update, { isLoading }] = useUpdateCompanyMutation();
  const change = async (patch: AdminCompanyPatch) => {
    try {
      await update({ id: company.id, patch }).unwrap();
    } catch (error) {
      message.error(serverErrorDetail(error) ?? failureText);
    }
  };
  return [change, isLoading] as const;
}

/** The shop's manager whose name and contacts the company's employees see. */
function ManagerChoice({ company }: { company: AdminCompany }) {
  const { data: staff, isFetching, isError } = useGetStaffQuery();
  const [change, saving] = useCompanyChange(company, 'Не удалось назначить менеджера');
  const { manager } = company;
  // The company's manager is one of the choices even before the staff list arrives (or if no longer in it).
  const managers = manager && !staff?.some(({ id }) => id === manager.id) ? [...(staff ?? []), manager] : (staff ?? []);
  const options = [
    { value: NO_MANAGER, label: 'Не назначен' },
    ...managers.map(({ id, name }) => ({ value: id, label: name })),
  ];
  return (
    <div className="admin-filter">
      <label htmlFor="company-manager">Персональный менеджер</label>
      <Select<number>
        id="company-manager"
        className="admin-company-choice"
        value={manager?.id ?? NO_MANAGER}
        options={options}
        loading={isFetching || saving}
        disabled={saving}
        onChange={(id) => change({ manager_id: id === NO_MANAGER ? null : id })}
        aria-describedby="company-manager-hint"
      />
      <Typography.Text type={isError ? 'danger' : 'secondary'} id="company-manager-hint">
        {isError
          ? 'Не удалось загрузить список менеджеров'
          : 'Его имя, телефон, e-mail и мессенджер видят сотрудники компании'}
      </Typography.Text>
    </div>
  );
}

/** The price type Select's «По умолчанию» (the type of guests and unassigned companies): type ids start at 1. */
const DEFAULT_PRICE_TYPE = 0;

/** Which prices the company's employees see and order at; a РРЦ is sold to nobody, so it is no choice. */
function PriceTypeChoice({ company }: { company: AdminCompany }) {
  const { data: types, isFetching, isError } = useGetPriceTypesQuery();
  const [change, saving] = useCompanyChange(company, 'Не удалось сменить тип цен');
  const assigned = company.price_type;
  const sold = (types ?? []).filter(({ is_rrp }) => !is_rrp);
  // The company's type is one of the choices even before the types arrive.
  const choices = assigned && !sold.some(({ id }) => id === assigned.id) ? [...sold, assigned] : sold;
  const defaultType = types?.find(({ is_default }) => is_default);
  const options = [
    { value: DEFAULT_PRICE_TYPE, label: defaultType ? `По умолчанию (${defaultType.name})` : 'По умолчанию' },
    ...choices.map(({ id, name }) => ({ value: id, label: name })),
  ];
  return (
    <div className="admin-filter">
      <label htmlFor="company-price-type">Тип цен</label>
      <Select<number>
        id="company-price-type"
        className="admin-company-choice"
        value={assigned?.id ?? DEFAULT_PRICE_TYPE}
        options={options}
        loading={isFetching || saving}
        disabled={saving}
        onChange={(id) => change({ price_type_id: id === DEFAULT_PRICE_TYPE ? null : id })}
        aria-describedby="company-price-type-hint"
      />
      <Typography.Text type={isError ? 'danger' : 'secondary'} id="company-price-type-hint">
        {isError
          ? 'Не удалось загрузить типы цен'
          : 'По этим ценам сотрудники компании видят товары и оформляют заказы; «По умолчанию» следует за типом по умолчанию'}
      </Typography.Text>
    </div>
  );
}

/** Whether the limits of a new buyer (docs/decisions.md, «Caps on the unproven») fall on the company's orders. */
function TrustChoice({ company }: { company: AdminCompany }) {
  const [change, saving] = useCompanyChange(company, 'Не удалось сохранить отметку');
  const explanation = company.trusted
    ? 'Ограничения новых покупателей сняты: сотрудники заказывают любое количество в пределах остатка'
    : company.has_paid_order
      ? 'Есть оплаченный заказ: ограничения новых покупателей сняты и без отметки'
      : 'Новая компания: ограничены доля остатка в заказе, число неоплаченных заказов и срок резерва';
  return (
    <Flex vertical gap={4} align="start">
      <Flex gap={8} align="center">
        <Switch
          id="company-trusted"
          checked={company.trusted}
          loading={saving}
          onChange={(trusted) => change({ trusted })}
          aria-describedby="company-trusted-hint"
        />
        <label htmlFor="company-trusted">Проверенная</label>
      </Flex>
      <Typography.Text type="secondary" id="company-trusted-hint">
        {explanation}
      </Typography.Text>
    </Flex>
  );
}

/** Blocking stops the company's ordering, and nothing else: its employees still sign in and see their orders. */
function BlockChoice({ company }: { company: AdminCompany }) {
  const [change, saving] = useCompanyChange(company, 'Не удалось изменить блокировку');
  if (company.blocked)
    return (
      <Button loading={saving} onClick={() => change({ blocked: false })}>
        Разблокировать
      </Button>
    );
  return (
    <Popconfirm
      title={`Заблокировать компанию «${company.name}»?`}
      description="Сотрудники смогут входить, видеть заказы и счета, но не смогут оформлять новые заказы."
      okText="Заблокировать"
      cancelText="Отмена"
      okButtonProps={{ danger: true }}
      onConfirm={() => change({ blocked: true })}
    >
      <Button danger loading={saving}>
        Заблокировать
      </Button>
    </Popconfirm>
  );
}

/** What a manager may do with the company: its manager, price type, trust, blocking and merging another into it. */
export function CompanyControls({ company }: { company: AdminCompany }) {
  const [merging, setMerging] = useState(false);
  return (
    <section className="admin-section" aria-labelledby="company-controls">
      <Typography.Title level={2} id="company-controls">
        Управление
      </Typography.Title>
      <Flex vertical gap={16} align="start">
        <ManagerChoice company={company} />
        <PriceTypeChoice company={company} />
        <TrustChoice company={company} />
        <div className="admin-actions">
          <BlockChoice company={company} />
          <Button onClick={() => setMerging(true)}>Объединить с другой компанией</Button>
        </div>
      </Flex>
      {merging && <CompanyMergeDialog company={company} onClose={() => setMerging(false)} />}
    </section>
  );
}
