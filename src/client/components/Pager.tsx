import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';

interface PagerProps {
  /** Zero-based page index. */
  page: number;
  /** Whether the next page has products (read ahead: see usePagedProducts). */
  canGoForward: boolean;
  onChange(page: number): void;
  showPageNumber?: boolean;
  disabled?: boolean;
}

/**
 * 'Назад' and 'Вперёд' of SPEC §9. Not antd's Pagination: that one needs the total, and the API
 * gives only pages.
 */
export function Pager({ page, canGoForward, onChange, showPageNumber = false, disabled = false }: PagerProps) {
  return (
    <Flex component="nav" aria-label="Страницы" justify="center" align="center" gap="middle" className="pager">
      <Button icon={<LeftOutlined aria-hidden />} disabled={disabled || page === 0} onClick={() => onChange(page - 1)}>
        Назад
      </Button>
      {showPageNumber && <Typography.Text className="pager-number">Страница {page + 1}</Typography.Text>}
      <Button
        icon={<RightOutlined aria-hidden />}
        iconPlacement="end"
        disabled={disabled || !canGoForward}
        onClick={() => onChange(page + 1)}
      >
        Вперёд
      </Button>
    </Flex>
  );
}
