import { Component, Suspense, type ReactNode } from 'react';

interface Props {
  /** Shown while the request is on its way. */
  loading: ReactNode;
  /** Shown when it failed; `retry` forgets the failure and renders the children again. */
  failed: (error: unknown, retry: () => void) => ReactNode;
  /** Called before a retry, to drop the failed request from the cache. */
  onRetry?: () => void;
  children: ReactNode;
}

/** Suspense plus an error boundary for a screen that reads its data with React's `use()`. */
export class RequestBoundary extends Component<Props, { error: unknown; failed: boolean }> {
  override state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  private readonly retry = () => {
    this.props.onRetry?.();
    this.setState({ error: null, failed: false });
  };

  override render(): ReactNode {
    if (this.state.failed) return this.props.failed(this.state.error, this.retry);
    return <Suspense fallback={this.props.loading}>{this.props.children}</Suspense>;
  }
}
