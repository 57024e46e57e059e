// A screen's heading: sets the document title and takes focus when the screen opens, so a screen
// reader announces where a link led and keyboard users start at the top of the new content.
import { type ReactNode, useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

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
  // A page load starts at the top (the skip link first); a move within the portal moves the focus.
  const { key } = useLocation()
  useEffect(() => {
    document.title = `${title} · alertbridge`
    if (key !== 'default') heading.current?.focus()
  }, [title, key])
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
