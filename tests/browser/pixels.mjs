// Reading back what Chromium shows, for the browser tests: the pixels of the
// page's canvases, and the colours it paints (an element screenshot).

/**
 * For each canvas matching `selector`: its size and the RGBA bytes at `points`
 * ([row, col] pairs), read through a copy (reading the page's own canvas back
 * would make Chromium advise on its set-up).
 */
export const canvasPixels = (page, selector, points) => page.$$eval(selector, (els, pts) => els.map((c) => {
  const copy = document.createElement('canvas');
  copy.width = c.width;
  copy.height = c.height;
  const ctx = copy.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(c, 0, 0);
  return { size: [c.width, c.height], pixels: pts.map(([r, col]) => [...ctx.getImageData(col, r, 1, 1).data]) };
}), points);

/** The RGB colour painted at each of `points` ([x, y] in CSS pixels from the element's top left). */
export async function paintedAt(page, element, points) {
  const png = (await element.screenshot()).toString('base64');
  return page.evaluate(async ([data, pts]) => {
    // Decoded from a Blob: a data: URL is an image the page's policy (img-src 'self') blocks.
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const img = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(img, 0, 0);
    return pts.map(([x, y]) => [...ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data].slice(0, 3));
  }, [png, points]);
}
