// Group commit: writes that arrive together share one transaction, so durable accepts are not bound
// to one fsync each. A batch starts on the next turn of the event loop; while it commits, new items
// gather for the following one, so batches grow by themselves under load and stay at one item when
// idle. If a batch fails, its items are retried one by one so that one bad item fails alone.
export class GroupCommit<T> {
  private pending: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = []
  private flushing = false

  constructor(
    private readonly commit: (items: T[]) => Promise<void>,
    private readonly maxBatch = 256,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject })
      if (!this.flushing) {
        this.flushing = true
        setImmediate(() => void this.flush())
      }
    })
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch)
        try {
          await this.commit(batch.map((b) => b.item))
          for (const b of batch) b.resolve()
        } catch (err) {
          if (batch.length === 1) {
            batch[0]?.reject(err)
            continue
          }
          for (const b of batch) {
            try {
              await this.commit([b.item])
              b.resolve()
            } catch (e) {
              b.reject(e)
            }
          }
        }
      }
    } finally {
      this.flushing = false
    }
  }
}
