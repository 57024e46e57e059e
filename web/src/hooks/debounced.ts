// A value that follows another once it has stopped changing for a moment: searches ask the service
// once a user pauses typing, not at every key.
import { useEffect, useState } from 'react'

export function useDebounced<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
