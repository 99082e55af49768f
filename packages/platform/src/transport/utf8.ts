/**
 * The UTF-8 bytes of `text`, for a NATS payload or protocol line. `Buffer.from` takes small
 * strings out of Node's shared pool; `TextEncoder.encode` makes a new ArrayBuffer each time,
 * slower for a request's packet, and the buffers it leaves add to the collector's work. nats.js copies what it is given into its
 * outbound buffer or keeps it unchanged until written, so a slice of the pool is safe.
 */
export const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');
