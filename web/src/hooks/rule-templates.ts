// A rule's ticket templates previewed as the partner's PSA would get them, and the extra data fields
// recent alerts carried (what a rule condition can name); both change nothing.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { Body } from '../api/types'

export type TemplatePreviewInput = Body<'/api/partner/integrations/{id}/template-preview', 'post'>

/** The rendered title and description; asked again as the (debounced) templates change. */
export function useTemplatePreview(id: string, body: TemplatePreviewInput, enabled: boolean) {
  return useQuery({
    queryKey: ['template-preview', id, body],
    queryFn: () =>
      unwrap(api.POST('/api/partner/integrations/{id}/template-preview', { params: { path: { id } }, body })),
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
  })
}

export function useExtraFields(id: string) {
  return useQuery({
    queryKey: ['extra-fields', id],
    queryFn: () =>
      unwrap(api.GET('/api/partner/integrations/{id}/extra-fields', { params: { path: { id } } })),
    staleTime: 60_000,
  })
}
