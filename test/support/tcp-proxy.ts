// A TCP proxy on loopback in front of a server (Redis in the scale-out tests), which can be made to
// swallow everything sent through it: the process behind it then sees a connection that is up but
// never answers, as when a network path dies without a reset.
import net from 'node:net'

export interface TcpProxy {
  port: number
  /** From now on nothing passes, in either direction, on any connection. */
  blackhole(): void
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  let dropped = false
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => s.destroy())
      s.on('close', () => sockets.delete(s))
    }
    client.on('data', (chunk) => {
      if (!dropped) upstream.write(chunk)
    })
    upstream.on('data', (chunk) => {
      if (!dropped) client.write(chunk)
    })
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    blackhole() {
      dropped = true
    },
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
