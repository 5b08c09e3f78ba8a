// antd's CSS for the back office's components (theme/antdComponents.ts), with this chunk only.
import '../../theme/antd-admin.generated.css';
import './admin.css';
import {
  AppstoreOutlined,
  BankOutlined,
  CloudSyncOutlined,
  ContactsOutlined,
  FolderOutlined,
  HistoryOutlined,
  LogoutOutlined,
  PictureOutlined,
  SafetyCertificateOutlined,
  ShoppingOutlined,
  SwapOutlined,
  TagsOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { App, Button, Layout, Menu, Result, Typography, type MenuProps } from 'antd';
import { Suspense } from 'react';
import { Link, Navigate, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { PageLoading } from '@/components/PageLoading';
import { PageTitle } from '@/components/PageTitle';
import { useMinWidth } from '@/components/useMinWidth';
import { useAppSelector } from '@/hooks/reduxHooks';
import { selectUser } from '@/features/session/sessionSlice';
import { useLogout } from '@/features/session/useLogout';
import { ADMIN_PAGES, adminPath } from './adminPaths';
import { AuditPage } from './audit/AuditPage';
import BannersPage from './catalogue/BannersPage';
import CategoriesPage from './catalogue/CategoriesPage';
import PriceListPage from './catalogue/PriceListPage';
import ProductFormPage from './catalogue/ProductFormPage';
import ProductsPage from './catalogue/ProductsPage';
import { CompaniesPage } from './companies/CompaniesPage';
import { CompanyPage } from './companies/CompanyPage';
import { ConformityDocumentsPage } from './documents/ConformityDocumentsPage';
import { ExchangePage } from './exchange/ExchangePage';
import { AdminOrderPage } from './orders/AdminOrderPage';
import { OrdersPage } from './orders/OrdersPage';
import { PriceTypesPage } from './prices/PriceTypesPage';
import { SupplierRequisitesPage } from './requisites/SupplierRequisitesPage';
import { StaffPage } from './staff/StaffPage';

function AdminNotFound() {
  return (
    <Result
      status="404"
      title={<Typography.Title>Страница не найдена</Typography.Title>}
      extra={
        <>
          <PageTitle name="Страница не найдена" />
          <Link to={adminPath('orders')}>К заказам</Link>
        </>
      }
    />
  );
}

/** The back office's pages under /admin (paths relative to it: `products/new` outranks `products/:id`). */
const ADMIN_ROUTES: RouteObject[] = [
  { index: true, element: <Navigate to={ADMIN_PAGES.orders} replace /> },
  { path: ADMIN_PAGES.orders, element: <OrdersPage /> },
  { path: ADMIN_PAGES.order, element: <AdminOrderPage /> },
  { path: ADMIN_PAGES.companies, element: <CompaniesPage /> },
  { path: ADMIN_PAGES.company, element: <CompanyPage /> },
  { path: ADMIN_PAGES.staff, element: <StaffPage /> },
  { path: ADMIN_PAGES.products, element: <ProductsPage /> },
  { path: ADMIN_PAGES.productNew, element: <ProductFormPage /> },
  { path: ADMIN_PAGES.product, element: <ProductFormPage /> },
  { path: ADMIN_PAGES.categories, element: <CategoriesPage /> },
  { path: ADMIN_PAGES.banners, element: <BannersPage /> },
  { path: ADMIN_PAGES.priceTypes, element: <PriceTypesPage /> },
  { path: ADMIN_PAGES.priceList, element: <PriceListPage /> },
  { path: ADMIN_PAGES.documents, element: <ConformityDocumentsPage /> },
  { path: ADMIN_PAGES.exchange, element: <ExchangePage /> },
  { path: ADMIN_PAGES.requisites, element: <SupplierRequisitesPage /> },
  { path: ADMIN_PAGES.audit, element: <AuditPage /> },
  { path: '*', element: <AdminNotFound /> },
];

// Keyed by each section's first path segment, which also marks the section of its inner pages.
const MENU_ITEMS: MenuProps['items'] = [
  { key: ADMIN_PAGES.orders, label: 'Заказы', icon: <ShoppingOutlined aria-hidden /> },
  { key: ADMIN_PAGES.companies, label: 'Компании', icon: <TeamOutlined aria-hidden /> },
  { key: ADMIN_PAGES.products, label: 'Товары', icon: <AppstoreOutlined aria-hidden /> },
  { key: ADMIN_PAGES.categories, label: 'Категории', icon: <FolderOutlined aria-hidden /> },
  { key: ADMIN_PAGES.banners, label: 'Баннеры', icon: <PictureOutlined aria-hidden /> },
  { key: ADMIN_PAGES.priceTypes, label: 'Типы цен', icon: <TagsOutlined aria-hidden /> },
  { key: ADMIN_PAGES.priceList, label: 'Импорт и экспорт', icon: <SwapOutlined aria-hidden /> },
  { key: ADMIN_PAGES.documents, label: 'Документы соответствия', icon: <SafetyCertificateOutlined aria-hidden /> },
  { key: ADMIN_PAGES.exchange, label: 'Обмен с 1С', icon: <CloudSyncOutlined aria-hidden /> },
  { key: ADMIN_PAGES.requisites, label: 'Реквизиты', icon: <BankOutlined aria-hidden /> },
  { key: ADMIN_PAGES.staff, label: 'Менеджеры', icon: <ContactsOutlined aria-hidden /> },
  { key: ADMIN_PAGES.audit, label: 'Журнал', icon: <HistoryOutlined aria-hidden /> },
];

/** The sections' menu: down the side on a wide screen, across the top (folding into «…») on a narrow one. */
function SectionMenu({ mode }: { mode: 'inline' | 'horizontal' }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const section = pathname.slice(PAGE_PATHS.admin.length + 1).split('/')[0] || ADMIN_PAGES.orders;
  return (
    <nav aria-label="Разделы панели менеджера">
      <Menu
        mode={mode}
        items={MENU_ITEMS}
        selectedKeys={[section]}
        onClick={({ key }) => navigate(`${PAGE_PATHS.admin}/${key}`)}
        // Where the sections do not fit across: a word, not antd's «…» icon, which names itself in English.
        overflowedIndicator={<span>Ещё</span>}
      />
    </nav>
  );
}

/** The back office: its own layout, for managers only (the router's RequireUser). */
export default function AdminApp() {
  const user = useAppSelector(selectUser);
  const logout = useLogout();
  const wide = useMinWidth(900);
  const { pathname } = useLocation();
  const page = useRoutes(ADMIN_ROUTES);
  return (
    <App>
      <Layout className="admin-layout">
        <Layout.Header className="admin-header">
          <Link to={PAGE_PATHS.home} className="admin-shop-link">
            Мягкий Опт
          </Link>
          <Typography.Text strong className="admin-header-title">
            Панель менеджера
          </Typography.Text>
          <span className="admin-header-user">
            <Typography.Text type="secondary" ellipsis className="admin-header-email">
              {user?.email}
            </Typography.Text>
            <Button type="text" icon={<LogoutOutlined aria-hidden />} onClick={logout}>
              Выйти
            </Button>
          </span>
        </Layout.Header>
        {!wide && <SectionMenu mode="horizontal" />}
        <Layout>
          {wide && (
            <Layout.Sider width={220} theme="light" className="admin-sider">
              <SectionMenu mode="inline" />
            </Layout.Sider>
          )}
          <Layout.Content className="admin-content">
            <ErrorBoundary key={pathname}>
              <Suspense fallback={<PageLoading />}>{page}</Suspense>
            </ErrorBoundary>
          </Layout.Content>
        </Layout>
      </Layout>
    </App>
  );
}
