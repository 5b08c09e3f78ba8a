import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { ShellButton } from './ShellButton';

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
    <nav className="pager" aria-label="Страницы">
      <ShellButton icon={<LeftOutlined aria-hidden />} disabled={disabled || page === 0} onClick={() => onChange(page - 1)}>
        Назад
      </ShellButton>
      {showPageNumber && <span className="pager-number">Страница {page + 1}</span>}
      <ShellButton disabled={disabled || !canGoForward} onClick={() => onChange(page + 1)}>
        Вперёд <RightOutlined aria-hidden />
      </ShellButton>
    </nav>
  );
}
