import { App, Button, Card, Flex, Popconfirm, Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { Company, CompanyMember } from '@shared/api';
import { COMPANY_MESSAGES, COMPANY_ROLE_LABELS, mayManageMembers, type CompanyRole } from '@shared/company';
import { serverErrorDetail } from '@/api/serverErrorDetail';
import { useAppSelector } from '@/hooks/reduxHooks';
import { selectUser } from '@/features/session/sessionSlice';
import { useChangeMemberRoleMutation, useRemoveMemberMutation } from './companyApi';
import { InvitationForm, PendingInvitations } from './Invitations';
import { ROLE_OPTIONS } from './roleOptions';

/**
 * The company's employees. The owner changes the others' roles, removes them (never themselves
 * here: the last owner must stay, and leaving is the account's deletion) and invites new ones.
 */
export function MembersCard({ company }: { company: Company }) {
  const selfId = useAppSelector(selectUser)?.id;
  const manages = mayManageMembers(company.role);
  const [changeRole] = useChangeMemberRoleMutation();
  const [removeMember] = useRemoveMemberMutation();
  const { message } = App.useApp();

  const act = async (action: Promise<unknown>, done: string, failed: string) => {
    try {
      await action;
      void message.success(done);
    } catch (error) {
      void message.error(serverErrorDetail(error) ?? failed);
    }
  };

  const columns: TableColumnsType<CompanyMember> = [
    {
      // The name over the address in one column: the table fits a phone's width without scrolling.
      title: 'Сотрудник',
      dataIndex: 'email',
      render: (email: string, member) => (
        <Flex vertical>
          <Flex wrap gap="small" align="center">
            <span className="company-member-email">{email}</span>
            {member.user_id === selfId && <Tag>вы</Tag>}
          </Flex>
          {member.name && <Typography.Text type="secondary">{member.name}</Typography.Text>}
        </Flex>
      ),
    },
    {
      title: 'Роль',
      dataIndex: 'role',
      render: (role: CompanyRole, member) =>
        manages && member.user_id !== selfId ? (
          // The removal beside the role, below it on a phone.
          <Flex wrap gap="small">
            <Select
              id={`company-member-role-${member.user_id}`}
              aria-label={`Роль: ${member.email}`}
              value={role}
              options={ROLE_OPTIONS}
              popupMatchSelectWidth={false}
              onChange={(next) =>
                void act(
                  changeRole({ user_id: member.user_id, role: next }).unwrap(),
                  `${member.email}: роль «${COMPANY_ROLE_LABELS[next]}»`,
                  'Не удалось сменить роль',
                )
              }
            />
            <Popconfirm
              title={`Удалить ${member.email} из компании?`}
              description="Сотрудник потеряет доступ к заказам и корзине компании. Оформленные им заказы останутся."
              okText="Удалить"
              cancelText="Отмена"
              okButtonProps={{ danger: true }}
              onConfirm={() =>
                act(
                  removeMember(member.user_id).unwrap(),
                  `${member.email} удалён из компании`,
                  'Не удалось удалить сотрудника',
                )
              }
            >
              <Button danger aria-label={`Удалить сотрудника ${member.email}`}>
                Удалить
              </Button>
            </Popconfirm>
          </Flex>
        ) : (
          COMPANY_ROLE_LABELS[role]
        ),
    },
  ];

  return (
    <Card title="Сотрудники" size="small" className="company-card company-members">
      <Flex vertical gap="large">
        <Table<CompanyMember>
          rowKey="user_id"
          size="small"
          columns={columns}
          dataSource={company.members}
          pagination={false}
        />
        {manages ? (
          <>
            <PendingInvitations invitations={company.invitations} />
            <InvitationForm />
          </>
        ) : (
          <Typography.Text type="secondary">{COMPANY_MESSAGES.notOwner}</Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
