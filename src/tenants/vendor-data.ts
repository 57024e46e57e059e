// What the vendor declares for billing (docs/contract.md#vendor-api-calls) and how the partner maps it.

export interface VendorAccount {
  vendorAccountId: string
  name: string
  externalId: string
  createdAt: string
  updatedAt: string
}

export interface VendorService {
  id: string
  name: string
  description: string
  createdAt: string
  updatedAt: string
}

export interface UsageCount {
  id: string
  serviceId: string
  accountId: string
  unitCount: number
  createdAt: string
}

export interface ServiceMapping {
  serviceId: string
  psaProductId: string
  updatedAt: string
}
