// Conversions between stored columns and domain values (0/1 booleans, JSON text).

export const toInt = (b: boolean): number => (b ? 1 : 0)
export const toBool = (n: number | boolean): boolean => n === 1 || n === true

export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T
}
