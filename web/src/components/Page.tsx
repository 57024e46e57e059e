// A screen's heading: sets the document title and takes focus when the screen opens, so a screen
// reader announces where a link led and keyboard users start at the top of the new content.
import { type ReactNode, useEffect, useRef } from 'react'

export function Page({
  title,
  actions,
  children,
}: {
  title: string
  actions?: ReactNode
  children: ReactNode
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${title} · alertbridge`
    heading.current?.focus()
  }, [title])
  return (
    <>
      <div className="row spread">
        <h1 tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </>
  )
}
