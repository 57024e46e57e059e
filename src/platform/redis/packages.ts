// The Redis stack's packages (ioredis, BullMQ, redis-semaphore), loaded when a process first uses
// Redis: the embedded default and a process on PostgreSQL alone never load them (a tenth of a
// second of every start). Their types are imported as types; the values come from here.
import { createRequire } from 'node:module'

const load = createRequire(import.meta.url)

export const ioredis = () => load('ioredis') as typeof import('ioredis')
export const bullmq = () => load('bullmq') as typeof import('bullmq')
export const redisSemaphore = () => load('redis-semaphore') as typeof import('redis-semaphore')
