import { Button } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** Shown instead of the children after they failed; defaults to a retry panel. */
  fallback?: ReactNode;
}

/** Keeps one broken widget or page from blanking the whole shop. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Ошибка интерфейса', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      this.props.fallback ?? (
        <div className="error-fallback" role="alert">
          <p>Не удалось показать эту часть страницы</p>
          <Button onClick={() => this.setState({ failed: false })}>Попробовать снова</Button>
        </div>
      )
    );
  }
}
