// Coloured words for states; the word itself carries the meaning, colour only helps.
const stateHelp: Record<string, string> = {
  created: 'the vendor has not started the mapping yet',
  mapping: 'map accounts, then complete the mapping',
  pending: 'ready; waiting for the first alert',
  connected: 'alerts are flowing',
}

export function StateBadge({ state }: { state: string }) {
  return (
    <span className={`badge ${state}`} title={stateHelp[state]}>
      {state}
    </span>
  )
}

export function Badge({ kind, children }: { kind: string; children: string }) {
  return <span className={`badge ${kind}`}>{children}</span>
}

export function OnOff({ on, label }: { on: boolean; label: string }) {
  return <span className={`badge ${on ? 'on' : 'off'}`}>{`${label} ${on ? 'on' : 'off'}`}</span>
}
