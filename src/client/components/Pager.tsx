import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';

interface PagerProps {
  /** Zero-based page index. */
  page: number;
  /** SPEC §9: forward only when the current page came back full. */
  canGoForward: boolean;
  onChange(page: number): void;
  showPageNumber?: boolean;
  disabled?: boolean;
}

export function Pager({ page, canGoForward, onChange, showPageNumber = false, disabled = false }: PagerProps) {
  return (
    <Space className="pager" size="middle" wrap>
      <Button icon={<LeftOutlined />} disabled={disabled || page === 0} onClick={() => onChange(page - 1)}>
        Назад
      </Button>
      {showPageNumber && <Typography.Text>Страница {page + 1}</Typography.Text>}
      <Button disabled={disabled || !canGoForward} onClick={() => onChange(page + 1)}>
        Вперёд <RightOutlined />
      </Button>
    </Space>
  );
}
