/** The time source. Injected everywhere a decision depends on time, so tests never sleep. */
export type Clock = () => Date

export const systemClock: Clock = () => new Date()

export const iso = (clock: Clock): string => clock().toISOString()
