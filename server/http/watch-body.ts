/**
 * The same response, with `done` called once its body is over (read, errored or canceled), so
 * whoever produced it can release what the stream was holding.
 */
export function watchBody(response: Response, done: () => void): Response {
  // a body is bytes (the Fetch standard); the DOM-less types leave its chunks `any`
  const source = response.body as ReadableStream<Uint8Array> | null;
  if (source === null) {
    done();
    return response;
  }
  // once: a cancel may come while a read is still out
  let finish = () => {
    finish = () => {};
    done();
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
