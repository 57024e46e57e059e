// Step 2's suggested matches over every account not mapped yet: how many are confident (the same name
// once case, punctuation, legal forms or a branch are ignored) and how many only possible, and one
// action that maps every confident one (one call); the possible ones stay in the list to review.
import { ErrorNotice, Loading } from '../../components/State'
import { useCanEdit } from '../../hooks/session'
import { useMapAccounts, type useSuggestions } from '../../hooks/suggestions'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

export function SuggestionSummary({
  integrationId,
  suggestions,
  onMapped,
}: {
  integrationId: string
  suggestions: ReturnType<typeof useSuggestions>
  /** After the confident ones were mapped: what to announce. */
  onMapped: (message: string) => void
}) {
  const canEdit = useCanEdit()
  const mapMany = useMapAccounts(integrationId)
  const { confident, possible, ready, partial, error, fetching } = suggestions
  if (error && !ready)
    return (
      <section className="panel" aria-labelledby="suggestions-h">
        <h2 id="suggestions-h">Suggested matches</h2>
        <p>Suggestions need the PSA's list of companies, which could not be read:</p>
        <ErrorNotice error={error} />
      </section>
    )
  if (!ready) return <Loading what="Looking for companies with the accounts' names" />
  if (confident.length === 0 && possible.length === 0) return null

  const takeAll = () => {
    const left = possible.length
    mapMany.mutate(
      confident.map(({ account, suggestion }) => ({
        accountId: account.vendorAccountId,
        psaCompanyId: suggestion.item.id,
      })),
      {
        onSuccess: (n) =>
          onMapped(
            `${plural(n, 'account was', 'accounts were')} mapped to the suggested company.` +
              (left > 0
                ? ` ${plural(left, 'possible match is', 'possible matches are')} left to review.`
                : ''),
          ),
      },
    )
  }
  return (
    <section className="panel" aria-labelledby="suggestions-h">
      <h2 id="suggestions-h">Suggested matches</h2>
      <p>
        <strong>{plural(confident.length, 'confident suggestion', 'confident suggestions')}</strong>: the same
        name once case, punctuation, legal forms (Inc., Ltd, GmbH…) or a branch (“ - East”) are ignored.
      </p>
      <p>
        <strong>{plural(possible.length, 'possible match', 'possible matches')}</strong> to review: similar
        names, or a name several companies share.
      </p>
      {partial && <p className="small muted">Only the first 10,000 companies and accounts were compared.</p>}
      {canEdit && confident.length > 0 && (
        <button type="button" disabled={mapMany.isPending || fetching} onClick={takeAll}>
          {confident.length === 1
            ? 'Use the confident suggestion'
            : `Use all ${confident.length} confident suggestions`}
        </button>
      )}
      {mapMany.error && <ErrorNotice error={mapMany.error} />}
    </section>
  )
}
