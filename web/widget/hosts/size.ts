/**
 * Reports the widget's own size when it changes, as hosts ask (MCP Apps' `size-changed`, ChatGPT's
 * `notifyIntrinsicHeight`): coalesced to one per animation frame, nothing sent twice.
 */
export function observeSize(win: Window, report: (size: { width: number; height: number }) => void): () => void {
  const Observer = Reflect.get(win, "ResizeObserver") as typeof ResizeObserver | undefined;
  if (Observer === undefined) return () => {};
  const doc = win.document.documentElement;
  let last = "";
  let frame = 0;
  const measure = () => {
    frame = 0;
    // the content's own height, not the frame's (a host that sized the frame must not feed back),
    // with the body's margins: the frame must hold them too, or it scrolls by their sum
    const body = win.document.body;
    const style = win.getComputedStyle(body);
    const margins = parseFloat(style.marginTop) + parseFloat(style.marginBottom) || 0;
    const height = Math.ceil(body.getBoundingClientRect().height + margins);
    const width = Math.ceil(doc.getBoundingClientRect().width);
    const key = `${width}x${height}`;
    if (key === last) return;
    last = key;
    report({ width, height });
  };
  const observer = new Observer(() => {
    if (frame === 0) frame = win.requestAnimationFrame(measure);
  });
  observer.observe(doc);
  observer.observe(win.document.body);
  return () => {
    observer.disconnect();
    if (frame !== 0) win.cancelAnimationFrame(frame);
  };
}
