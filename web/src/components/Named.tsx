// A name with its id as secondary text (the id alone where no name is known): what the partner's
// screens show for accounts, PSA companies and the like.
export function Named({ name, id }: { name: string | null | undefined; id: string }) {
  if (!name || name === id) return <span className="mono">{id}</span>
  return (
    <>
      {name} <span className="small muted mono">{id}</span>
    </>
  )
}
