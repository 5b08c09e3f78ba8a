// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import '../theme/antd-company.generated.css';
import './ProfilePage.css';
import { LogoutOutlined } from '@ant-design/icons';
import { App, Button, Typography } from 'antd';
import { PageTitle } from '@/components/PageTitle';
import { useAppSelector } from '@/hooks/reduxHooks';
import { AccountSettings } from '@/features/session/AccountSettings';
import { ConfirmEmailNotice } from '@/features/session/ConfirmEmailNotice';
import { AddressBook } from '@/features/addresses/AddressBook';
import { CompanySection } from '@/features/company/CompanySection';
import { useCompanyStanding } from '@/features/company/companyStanding';
import { OrderList } from '@/features/orders/OrderList';
import { RequisitesForm } from '@/features/requisites/RequisitesForm';
import { selectUser } from '@/features/session/sessionSlice';
import { emailPrefix } from '@/features/session/UserButton';
import { useLogout } from '@/features/session/useLogout';

export default function ProfilePage() {
  const user = useAppSelector(selectUser);
  const logout = useLogout();
  const { company } = useCompanyStanding();
  if (!user) return null;
  // App: the toasts of the order list (an invoice that could not be downloaded) and of the
  // company's changes; see app/theme.tsx.
  return (
    <App component={false}>
      <PageTitle name="Личный кабинет" />
      <div className="profile-head">
        <div>
          <Typography.Title>Здравствуйте, {emailPrefix(user.email)}!</Typography.Title>
          <Typography.Text type="secondary">{user.email}</Typography.Text>
        </div>
        <Button icon={<LogoutOutlined />} onClick={logout}>
          Выйти
        </Button>
      </div>
      <ConfirmEmailNotice />
      <Typography.Title level={2} className="section-title">
        Мои заказы
      </Typography.Title>
      <OrderList userId={user.id} />
      {/* A shop's manager has no company. */}
      {company && <CompanySection />}
      <h2 className="section-title">Реквизиты и адреса</h2>
      <div className="profile-requisites">
        <RequisitesForm userId={user.id} />
        <AddressBook userId={user.id} />
      </div>
      <AccountSettings />
    </App>
  );
}
