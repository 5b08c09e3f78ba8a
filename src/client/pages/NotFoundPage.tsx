// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Button, Result, Typography } from 'antd';
import { Link } from 'react-router';
import { PAGE_PATHS } from '@shared/paths';

export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title={<Typography.Title>Упс... Страница не найдена</Typography.Title>}
      subTitle="Возможно, ссылка устарела или в адресе опечатка."
      extra={
        <Link to={PAGE_PATHS.home}>
          <Button type="primary">На главную</Button>
        </Link>
      }
    />
  );
}
