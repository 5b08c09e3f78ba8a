// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Button, Result, Typography } from 'antd';
import { Link } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';

export default function OrderSuccessPage() {
  return (
    <Result
      status="success"
      title={<Typography.Title>Заказ принят!</Typography.Title>}
      subTitle="Ваш заказ отправлен в обработку. Менеджер свяжется с вами и выставит счёт на оплату."
      extra={[
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
