/**
 * The same response, with `done` called once its body is over (read, errored or canceled), so
 * whoever produced it can release what the stream was holding.
 */
export function watchBody(response: Response, done: () => void): Response {
  if (response.body === null) {
    done();
    return response;
  }
  // the pipe ends once: with the body read, errored, or canceled by the reader (which cancels the source)
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  void response.body
    .pipeTo(writable)
    .catch(() => {})
    .finally(done);
  return new Response(readable, response);
}
