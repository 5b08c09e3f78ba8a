import { Alert, Flex, Table, Tag, Typography, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AdminCompany } from '@shared/api';
import { COMPANY_ROLE_LABELS, LEGAL_ENTITY_KIND_LABELS, type CompanyRole } from '@shared/company';
import { formatMoscowDateTimeNumeric } from '@shared/dates';
import { formatRubles } from '@shared/money';
import { StatusTag } from '@/components/StatusTag';
import { adminCompanyPath, adminOrderPath } from '../adminPaths';
import { actionName } from '../audit/auditWords';
import { isOrderStatus } from '../orders/ordersView';
import { emptyTable } from '../tableEmpty';

type Member = AdminCompany['members'][number];
type LegalEntity = AdminCompany['legal_entities'][number];
type Invitation = AdminCompany['invitations'][number];
type Order = AdminCompany['orders'][number];
// The journal's entries of a company have no id of their own, and one transaction's share their
// moment: the place in the answer tells them apart.
type AuditEntry = AdminCompany['audit'][number] & { key: number };

/** One of the company page's parts: a second-level heading that names the region. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="admin-section" aria-labelledby={id}>
      <Typography.Title level={2} id={id}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

const roleLabel = (role: CompanyRole) => COMPANY_ROLE_LABELS[role];
const orDash = (text: string | null) => text ?? '—';

const MEMBER_COLUMNS: TableProps<Member>['columns'] = [
  { title: 'Имя', dataIndex: 'name', render: orDash },
  { title: 'E-mail', dataIndex: 'email' },
  { title: 'Роль', dataIndex: 'role', render: roleLabel },
];

export function MembersSection({ company }: { company: AdminCompany }) {
  return (
    <Section id="company-members" title="Сотрудники">
      <Table<Member>
        rowKey="user_id"
        columns={MEMBER_COLUMNS}
        dataSource={company.members}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Сотрудников нет')}
      />
    </Section>
  );
}

const LEGAL_ENTITY_COLUMNS: TableProps<LegalEntity>['columns'] = [
  {
    title: 'Юрлицо',
    key: 'name',
    render: (_value, entity) => (
      <Flex vertical gap={4} align="start">
        {entity.name}
        <div>
          <Tag>{LEGAL_ENTITY_KIND_LABELS[entity.kind]}</Tag>
          {entity.is_default && <Tag>По умолчанию</Tag>}
          {entity.same_inn_kpp.length > 0 && <Tag color="warning">Тот же ИНН и КПП в другой компании</Tag>}
        </div>
      </Flex>
    ),
  },
  { title: 'ИНН', dataIndex: 'inn' },
  { title: 'КПП', dataIndex: 'kpp', render: orDash },
  { title: 'ОГРН', dataIndex: 'ogrn', render: orDash },
  { title: 'Юридический адрес', dataIndex: 'address' },
  {
    title: 'Банк',
    key: 'bank',
    render: (_value, entity) =>
      entity.bank_name || entity.bik || entity.account ? (
        <>
          {entity.bank_name && <div>{entity.bank_name}</div>}
          {entity.bik && <div>БИК {entity.bik}</div>}
          {entity.account && <div>р/с {entity.account}</div>}
        </>
      ) : (
        '—'
      ),
  },
  {
    title: 'Последний заказ',
    dataIndex: 'last_used_at',
    render: (at: string | null) => (at ? formatMoscowDateTimeNumeric(at) : '—'),
  },
];

/**
 * The same ИНН and КПП in another company: one firm registered twice (two employees who each signed
 * up), which the manager may want to merge, or a mistake in the requisites.
 */
function SameInnKppWarning({ entity }: { entity: LegalEntity }) {
  const others = entity.same_inn_kpp;
  return (
    <Alert
      type="warning"
      showIcon
      title={
        <>
          {entity.name} (ИНН {entity.inn}
          {entity.kpp && `, КПП ${entity.kpp}`}): тот же ИНН и КПП {others.length === 1 ? 'у компании' : 'у компаний'}{' '}
          {others.map((other, index) => (
            <span key={other.company_id}>
              {index > 0 && ', '}
              <Link to={adminCompanyPath(other.company_id)}>{other.company_name}</Link>
            </span>
          ))}
        </>
      }
    />
  );
}

export function LegalEntitiesSection({ company }: { company: AdminCompany }) {
  const duplicated = company.legal_entities.filter((entity) => entity.same_inn_kpp.length > 0);
  return (
    <Section id="company-legal-entities" title="Юрлица">
      {duplicated.length > 0 && (
        <Flex vertical gap={8} className="admin-section-notes">
          {duplicated.map((entity) => (
            <SameInnKppWarning key={entity.id} entity={entity} />
          ))}
        </Flex>
      )}
      <Table<LegalEntity>
        rowKey="id"
        columns={LEGAL_ENTITY_COLUMNS}
        dataSource={company.legal_entities}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Юрлиц нет')}
      />
    </Section>
  );
}

const INVITATION_COLUMNS: TableProps<Invitation>['columns'] = [
  { title: 'E-mail', dataIndex: 'email' },
  { title: 'Роль', dataIndex: 'role', render: roleLabel },
  { title: 'Отправлено', dataIndex: 'created_at', render: formatMoscowDateTimeNumeric },
  { title: 'Действует до', dataIndex: 'expires_at', render: formatMoscowDateTimeNumeric },
];

export function InvitationsSection({ company }: { company: AdminCompany }) {
  return (
    <Section id="company-invitations" title="Приглашения">
      <Table<Invitation>
        rowKey="id"
        columns={INVITATION_COLUMNS}
        dataSource={company.invitations}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Ожидающих приглашений нет')}
      />
    </Section>
  );
}

const ORDER_COLUMNS: TableProps<Order>['columns'] = [
  { title: 'Заказ', dataIndex: 'id', render: (id: number) => <Link to={adminOrderPath(id)}>№{id}</Link> },
  { title: 'Создан', dataIndex: 'created_at', render: formatMoscowDateTimeNumeric },
  {
    title: 'Статус',
    dataIndex: 'status',
    render: (status: string) => (isOrderStatus(status) ? <StatusTag status={status} /> : status),
  },
  { title: 'Оформил', dataIndex: 'placed_by', render: orDash },
  { title: 'Юрлицо', dataIndex: 'legal_entity', render: orDash },
  { title: 'Сумма', dataIndex: 'total_price', align: 'right', render: formatRubles },
];

export function OrdersSection({ company }: { company: AdminCompany }) {
  return (
    <Section id="company-orders" title="Последние заказы">
      <Table<Order>
        rowKey="id"
        columns={ORDER_COLUMNS}
        dataSource={company.orders}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Заказов нет')}
      />
    </Section>
  );
}

const AUDIT_COLUMNS: TableProps<AuditEntry>['columns'] = [
  { title: 'Когда', dataIndex: 'at', render: formatMoscowDateTimeNumeric },
  { title: 'Кто', dataIndex: 'by', render: orDash },
  { title: 'Действие', dataIndex: 'action', render: actionName },
];

const hasDetails = (entry: AuditEntry) => entry.details !== null && entry.details !== undefined;

export function AuditSection({ company }: { company: AdminCompany }) {
  return (
    <Section id="company-audit" title="Журнал изменений">
      <Table<AuditEntry>
        columns={AUDIT_COLUMNS}
        dataSource={company.audit.map((entry, key) => ({ ...entry, key }))}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={emptyTable('Записей нет')}
        expandable={{
          columnTitle: <span className="admin-visually-hidden">Подробности</span>,
          rowExpandable: hasDetails,
          expandedRowRender: (entry) => <pre className="admin-json">{JSON.stringify(entry.details, null, 2)}</pre>,
        }}
      />
    </Section>
  );
}
