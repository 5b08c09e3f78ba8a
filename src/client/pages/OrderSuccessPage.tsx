// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';
import { PageTitle } from '@/components/PageTitle';

export default function OrderSuccessPage() {
  return (
    <Result
      status="success"
      title={<h1 className="page-title">Заказ принят!</h1>}
      subTitle="Ваш заказ отправлен в обработку. Менеджер свяжется с вами и выставит счёт на оплату."
      extra={[
        // React moves the <title> to the head wherever it is rendered; Result has no other place for it.
        <PageTitle key="title" name="Заказ принят" />,
        <Link key="home" to={PAGE_PATHS.home}>
          <Button>На главную</Button>
        </Link>,
        <Link key="profile" to={PAGE_PATHS.profile}>
          <Button type="primary">Мои заказы</Button>
        </Link>,
      ]}
    />
  );
}
