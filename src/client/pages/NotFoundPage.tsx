// antd's CSS for the components outside the shell (theme/antdComponents.ts), with this chunk.
import '../theme/antd-pages.generated.css';
import { Result, Typography } from 'antd';
import { NOT_FOUND_PAGE_NAME } from '@shared/page-names';
import { PAGE_PATHS } from '@shared/paths';
import { ButtonLink } from '@/components/ButtonLink';
import { PageTitle } from '@/components/PageTitle';

export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title={<Typography.Title>Упс... Страница не найдена</Typography.Title>}
      subTitle="Возможно, ссылка устарела или в адресе опечатка."
      extra={
        <>
          {/* React moves the <title> to the head wherever it is rendered; Result has no other place for it. */}
          <PageTitle name={NOT_FOUND_PAGE_NAME} />
          <ButtonLink type="primary" to={PAGE_PATHS.home}>
            На главную
          </ButtonLink>
        </>
      }
    />
  );
}
