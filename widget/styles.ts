/**
 * The widget's stylesheet, adopted by its shadow root as a constructed sheet: a host page's
 * Content-Security-Policy without 'unsafe-inline' in style-src blocks <style> elements and style
 * attributes, never constructed sheets.
 */
export function stylesheet(options: { color: string; left: boolean; page: boolean }): string {
  const side = options.left ? "left" : "right";
  const panel = options.page
    ? ".panel{position:fixed;inset:0;width:auto;height:auto;max-height:none;border-radius:0;box-shadow:none}"
    : `.panel{position:fixed;bottom:88px;${side}:16px;width:min(380px,calc(100vw - 32px));height:min(600px,calc(100vh - 112px))}
@media (max-width:480px){.panel{inset:0;width:auto;height:auto;max-height:none;border-radius:0}}`;
  return `:host{all:initial;--c:${options.color}}
*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:15px;line-height:1.4}
[hidden]{display:none!important}
button{cursor:pointer;font:inherit}
button:focus-visible,textarea:focus-visible,a:focus-visible{outline:3px solid var(--c);outline-offset:2px}
.launcher{position:fixed;bottom:16px;${side}:16px;width:56px;height:56px;border-radius:50%;border:0;background:var(--c);color:#fff;box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center;z-index:2147483646}
.launcher svg{width:28px;height:28px;fill:currentColor}
.panel{display:flex;flex-direction:column;background:#fff;color:#1a1a1a;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden;z-index:2147483647}
${panel}
header{display:flex;align-items:center;gap:8px;padding:12px 16px;background:var(--c);color:#fff}
h2{margin:0;flex:1;font-size:17px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.close{background:transparent;border:0;color:#fff;font-size:22px;line-height:1;padding:4px 8px;border-radius:6px}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:12px;background:#f6f7f9}
.msg{max-width:85%;padding:10px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere}
.human{align-self:flex-end;background:var(--c);color:#fff}
.agent{align-self:flex-start;background:#fff;border:1px solid #e2e4e8}
.text{margin:0}
.md{white-space:normal}
.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}
.md p,.md ul,.md ol,.md pre{margin:0 0 8px}
.md h3,.md h4,.md h5{margin:10px 0 4px;font-weight:600}
.md h3{font-size:17px}
.md ul,.md ol{padding-left:22px}.md li ul,.md li ol{margin:2px 0}
.md a{color:var(--c)}
.md code,.md pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;background:#f0f1f4;border-radius:4px}
.md code{padding:1px 4px}
.md pre{padding:8px 10px;overflow-x:auto;white-space:pre;overflow-wrap:normal}
.md pre code{padding:0;background:none}
.notice{margin:0;align-self:center;font-size:13px;color:#555}
.sources{margin:8px 0 0;padding:0 0 0 18px;font-size:13px;color:#555}
.sources a{color:inherit}
.feedback{display:flex;gap:6px;margin-top:8px}
.feedback button{font-size:13px;padding:3px 10px;border:1px solid #c9ccd2;border-radius:999px;background:#fff;color:#333}
.feedback button[aria-pressed=true]{background:var(--c);border-color:var(--c);color:#fff}
.error{margin:0;padding:8px 16px;background:#fdecea;color:#8a1c13;font-size:14px}
form{display:flex;gap:8px;padding:10px;border-top:1px solid #e2e4e8;background:#fff;align-items:flex-end}
textarea{flex:1;resize:none;min-height:42px;max-height:120px;padding:10px;border:1px solid #c9ccd2;border-radius:8px;color:#1a1a1a;background:#fff}
textarea::placeholder{color:#6b6f76;opacity:1}
.send,.mic{border:0;border-radius:8px;padding:0 14px;height:42px;background:var(--c);color:#fff}
.mic{background:#eef0f3;color:#333;padding:0 10px}
.mic[aria-pressed=true]{background:#c62828;color:#fff}
.mic svg{width:20px;height:20px;fill:currentColor;vertical-align:middle}
button:disabled{opacity:.5;cursor:default}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;
}
