import { Flex, Spin } from 'antd';

/** A page's or list's loading state: antd's spinner, centred, announced as 'Загрузка'. */
export function PageLoading() {
  return (
    <Flex justify="center" align="center" className="page-loading" role="status" aria-label="Загрузка">
      <Spin size="large" />
    </Flex>
  );
}
