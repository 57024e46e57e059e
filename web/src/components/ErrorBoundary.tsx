// A screen that fails to render shows what happened and a way on, instead of a blank page.
import { Component, type ReactNode } from 'react'

export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey: string },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null }

  static getDerivedStateFromError(error: Error) {
    return { error }
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    // Another screen gets a fresh start.
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null })
  }

  override render() {
    if (!this.state.error) return this.props.children
    return (
      <div className="notice error" role="alert">
        <p>This screen failed to show: {this.state.error.message}</p>
        <p>
          <a href="/integrations">Back to the integrations</a> or reload the page.
        </p>
      </div>
    )
  }
}
