import { Spin } from 'antd';

export function PageSpinner() {
  return (
    <div className="page-spinner" role="status" aria-label="Загрузка">
      <Spin size="large" />
    </div>
  );
}
