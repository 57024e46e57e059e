// "Connect NinjaOne": starts the consent flow (the service keeps its state and PKCE verifier) and
// sends the browser to NinjaOne's consent page, which comes back through the service's callback.
import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'

export function useConnectNinjaOne() {
  return useMutation({
    mutationFn: (returnTo: string) =>
      unwrap(api.POST('/api/partner/psa/ninjaone/authorize', { body: { returnTo } })),
    onSuccess: (started) => {
      window.location.assign(started.url)
    },
  })
}
