import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, Descriptions, Result, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useRouteId } from '../routeId';
import type { AdminCompany } from '@shared/api';
import { COMPANY_MESSAGES } from '@shared/company';
import { formatMoscowDateTimeNumeric } from '@shared/dates';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { PageLoading } from '@/components/PageLoading';
import { PageTitle } from '@/components/PageTitle';
import { adminPath } from '../adminPaths';
import type { FromCompanies } from './CompaniesPage';
import { useGetAdminCompanyQuery } from './companiesAdminApi';
import { CompanyControls } from './CompanyControls';
import {
  AuditSection,
  InvitationsSection,
  LegalEntitiesSection,
  MembersSection,
  OrdersSection,
} from './CompanySections';
import { CompanyTags } from './CompanyTags';

function CompanySummary({ company }: { company: AdminCompany }) {
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, md: 2 }}
      items={[
        { key: 'created', label: 'Зарегистрирована', children: formatMoscowDateTimeNumeric(company.created_at) },
        { key: 'paid', label: 'Оплаченные заказы', children: company.has_paid_order ? 'Есть' : 'Нет' },
        {
          key: 'ordering',
          label: 'Оформление заказов',
          children: company.blocked ? 'Приостановлено магазином' : 'Разрешено',
        },
      ]}
    />
  );
}

/** A company page with no company to show: «Компания не найдена» for a bad or unknown number, else the server's reason. */
function CompanyNotShown({ badNumber, error, back }: { badNumber: boolean; error: unknown; back: ReactNode }) {
  const missing = badNumber || (error as { status?: unknown } | undefined)?.status === 404;
  const title = missing ? COMPANY_MESSAGES.companyNotFound : 'Не удалось загрузить компанию';
  return (
    <Result
      status={missing ? '404' : 'error'}
      title={<Typography.Title>{title}</Typography.Title>}
      subTitle={missing ? undefined : serverErrorDetail(error)}
      extra={
        <>
          <PageTitle name={title} />
          {back}
        </>
      }
    />
  );
}

/** A buyers' company: who works there, its legal entities, orders and journal, and what a manager may change. */
export function CompanyPage() {
  const state = useLocation().state as FromCompanies | null;
  const id = useRouteId();
  const { data: company, isLoading, error } = useGetAdminCompanyQuery(id ?? 0, { skip: id === null });
  const back = (
    <Link to={`${adminPath('companies')}${state?.list ?? ''}`}>
      <ArrowLeftOutlined aria-hidden /> К компаниям
    </Link>
  );

  if (isLoading) return <PageLoading />;
  if (!company) return <CompanyNotShown badNumber={id === null} error={error} back={back} />;
  return (
    <>
      <PageTitle name={company.name} />
      {back}
      <div className="admin-page-head">
        <Typography.Title>{company.name}</Typography.Title>
        <CompanyTags company={company} />
      </div>
      {company.blocked && (
        <Alert
          type="warning"
          showIcon
          className="admin-section-notes"
          title="Компания заблокирована: сотрудники входят, видят заказы и счета, но не могут оформлять новые заказы"
        />
      )}
      <CompanySummary company={company} />
      <CompanyControls company={company} />
      <MembersSection company={company} />
      <LegalEntitiesSection company={company} />
      <InvitationsSection company={company} />
      <OrdersSection company={company} />
      <AuditSection company={company} />
    </>
  );
}
