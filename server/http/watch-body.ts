/**
 * Calls back once a streamed response body is over (read to the end, errored, or canceled by the
 * client), so whoever produced it can release what the stream was holding.
 */

/** Returns a response with the same status, headers and bytes, and `done` called once at the end. */
export function watchBody(response: Response, done: () => void): Response {
  // a body is bytes (the Fetch standard); the DOM-less types leave its chunks `any`
  const source = response.body as ReadableStream<Uint8Array> | null;
  if (source === null) {
    done();
    return response;
  }
  let finished = false;
  const finish = () => {
    if (!finished) {
      finished = true;
      done();
    }
  };
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          finish();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
