import H2JDigest
import H2JSupport

/// The only script and style of `compare --html`'s page, inline. The script keeps each
/// source's crops in step: one zoom (the slider, the wheel, or `#zoom=N` in the page's
/// address for every group at once) and one pan (dragging any crop) for all of them.
/// The page's Content-Security-Policy allows this script by its hash and nothing else.
enum ComparePageScript {
    static let script = """
        "use strict";
        const start = Number((location.hash.match(/zoom=([0-9.]+)/) || [])[1]) || 1;
        let dragging = null;
        for (const group of document.querySelectorAll(".zoom")) {
          const images = [...group.querySelectorAll(".crop img")];
          const slider = group.querySelector("input");
          const w = Number(group.dataset.w), h = Number(group.dataset.h);
          const view = { z: 1, x: 0, y: 0 };
          view.apply = () => {
            view.z = Math.min(8, Math.max(1, view.z));
            view.x = Math.min(Math.max(0, view.x), w - w / view.z);
            view.y = Math.min(Math.max(0, view.y), h - h / view.z);
            for (const image of images) image.style.transform = `scale(${view.z}) translate(${-view.x}px, ${-view.y}px)`;
            slider.value = view.z;
            group.dataset.zoom = view.z;
          };
          view.zoom = (z, cx, cy) => {
            const px = view.x + cx / view.z, py = view.y + cy / view.z;
            view.z = z;
            view.x = px - cx / Math.min(8, Math.max(1, z));
            view.y = py - cy / Math.min(8, Math.max(1, z));
            view.apply();
          };
          slider.addEventListener("input", () => view.zoom(Number(slider.value), w / 2, h / 2));
          for (const image of images) {
            const frame = image.parentElement;
            frame.addEventListener("pointerdown", (event) => { dragging = { view, x: event.clientX, y: event.clientY }; event.preventDefault(); });
            frame.addEventListener("wheel", (event) => {
              event.preventDefault();
              const box = frame.getBoundingClientRect();
              view.zoom(view.z * (event.deltaY < 0 ? 1.25 : 0.8), event.clientX - box.left, event.clientY - box.top);
            }, { passive: false });
          }
          view.zoom(start, w / 2, h / 2);
        }
        addEventListener("pointermove", (event) => {
          if (!dragging) return;
          const { view } = dragging;
          view.x -= (event.clientX - dragging.x) / view.z;
          view.y -= (event.clientY - dragging.y) / view.z;
          dragging.x = event.clientX;
          dragging.y = event.clientY;
          view.apply();
        });
        addEventListener("pointerup", () => { dragging = null; });
        """

    static let style = """
        body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:90em;padding:0 1em;color:#1b1b1b}
        h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2.5em;border-bottom:2px solid #ddd}h3{font-size:1em;margin:1.2em 0 .4em}
        table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .7em;text-align:left;border-bottom:1px solid #eee;vertical-align:top}
        td{max-width:28em;overflow-wrap:anywhere}.n{text-align:right;font-variant-numeric:tabular-nums}
        .pics,.zoom{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}figure{margin:0}figcaption{font-size:.85em;color:#555}
        .frame{position:relative;line-height:0}.frame img{max-width:400px;height:auto}
        .box{position:absolute;outline:2px solid #ff0;box-shadow:0 0 0 1px #000}
        .crop{overflow:hidden;line-height:0;cursor:grab;border:1px solid #999;touch-action:none}
        .crop img{transform-origin:0 0;image-rendering:pixelated}
        .dropped{background:#ffebe9;color:#82071e}.changed{background:#fff8c5}.added{background:#ddf4ff}.absent{color:#999}
        .cat{display:inline-block;font-size:.75em;padding:0 .4em;border-radius:.6em;background:#eee;margin-left:.4em}
        .cat.location{background:#cf222e;color:#fff}.cat.identifying{background:#8250df;color:#fff}
        .cat.capture-time{background:#bf8700;color:#fff}.cat.maker-note{background:#57606a;color:#fff}
        .error{color:#b3261e}summary{cursor:pointer}
        """

    /// The page's policy: no fetch of any kind; inline style; `data:` images; this script only.
    static var contentSecurityPolicy: String {
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-\(Base64.encoded(SHA256.digest(Array(script.utf8))))'"
    }
}
