// The address PSAs and people reach this service at: PUBLIC_URL when it is set, or else where this process
// listens (the server says so once it listens; a demo or a test on loopback needs no PUBLIC_URL).
// Two-way sync's push URLs and the ticket templates' previews read it.
export class PublicAddress {
  private listening: string | null = null

  constructor(private readonly configured: string | null) {}

  listeningAt(url: string): void {
    this.listening = url
  }

  get(): string | null {
    return this.configured ?? this.listening
  }
}
