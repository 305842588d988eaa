import ParleyHTTP

/// The fixed parts of the HTML report: the head with its style sheet and Content-Security-Policy,
/// the table's frame and filters, and the script that filters and pages the rows. Nothing here
/// comes from a recording.
enum HTMLPage {
    static func head(nonce: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; \
        style-src 'nonce-\(nonce)'; script-src 'nonce-\(nonce)'; base-uri 'none'; form-action 'none'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="parley check --report html">
        <title>Parley check report</title>
        <style nonce="\(nonce)">\(style)</style>
        </head>
        <body>
        <main id="report">
        <header class="top"><h1>Parley check report</h1>\
        <a class="skip" href="#summary">Summary</a> · <a class="skip" href="#exchanges-title">Exchanges</a></header>

        """
    }

    static let tableStart = """
        <section class="exchanges" aria-labelledby="exchanges-title">
        <h2 id="exchanges-title">Exchanges</h2>
        <form id="filters" class="filters" hidden>
        <label for="f-outcome">Outcome <select id="f-outcome"><option value="">any</option>\
        <option value="ok">ok</option><option value="warning">warning</option><option value="error">error</option>\
        </select></label>
        <label for="f-kind">Finding <select id="f-kind"><option value="">any</option></select></label>
        <label for="f-format">Format <select id="f-format"><option value="">any</option></select></label>
        <label for="f-status">Status <select id="f-status"><option value="">any</option><option value="1">1xx</option>\
        <option value="2">2xx</option><option value="3">3xx</option><option value="4">4xx</option>\
        <option value="5">5xx</option><option value="other">other</option></select></label>
        <label for="f-text">File or URL <input id="f-text" type="search" placeholder="search" autocomplete="off">\
        </label>
        </form>
        <p id="shown" class="shown" aria-live="polite"></p>
        <div class="scroll"><table id="exchanges">
        <thead><tr><th scope="col">File#index</th><th scope="col">Method</th><th scope="col">URL</th>\
        <th scope="col">Status</th><th scope="col">Content-Type</th><th scope="col">Format</th>\
        <th scope="col">Outcome</th><th scope="col">Findings</th></tr></thead>

        """

    static let tableEnd = """
        </table></div>
        <nav id="pager" class="pager" aria-label="Pages" hidden>\
        <button type="button" id="prev">Previous page</button> <span id="page">\
        </span> <button type="button" id="next">Next page</button></nav>
        </section>

        """

    static let style = """
        :root{--fg:#1f2328;--dim:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa}
        *{box-sizing:border-box}[hidden]{display:none!important}
        body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
        main{display:flex;flex-direction:column;padding:16px 24px;gap:12px}
        .top{order:-2}.summary{order:-1}
        h1{font-size:22px;margin:0}h2{font-size:18px;margin:8px 0}h3{font-size:15px;margin:4px 0 8px}\
        h4{margin:10px 0 4px;font-size:14px}h5{margin:6px 0;font-size:13px}
        a.skip{color:#0b6e99}
        .verdict{font-size:14px;padding:2px 8px;border-radius:4px;color:#fff;vertical-align:middle}
        .verdict.passed{background:#1a7f37}.verdict.failed{background:#b42318}
        .cards{display:flex;flex-wrap:wrap;gap:12px}
        .card{border:1px solid var(--line);border-radius:6px;padding:10px 14px;background:var(--soft);min-width:260px}
        .card dl{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:0}.card dt{color:var(--dim)}\
        .card dd{margin:0;word-break:break-all}
        table.counts{border-collapse:collapse;margin-bottom:8px}table.counts th,table.counts td{padding:1px 10px 1px 0;\
        text-align:left}
        svg.chart text{font-size:12px;fill:var(--fg)}
        .bar-ok{fill:#1a7f37}.bar-warning{fill:#8a5a00}.bar-error{fill:#b42318}.bar-note{fill:#57606a}
        .badge{display:inline-block;padding:0 7px;border-radius:10px;color:#fff;font-size:12px;font-weight:600}
        .badge.ok{background:#1a7f37}.badge.warning{background:#8a5a00}.badge.error{background:#b42318}
        .filters{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:4px 0}
        .filters label{display:flex;gap:6px;align-items:center}
        select,input{font:inherit;padding:2px 4px}
        .shown{margin:4px 0;color:var(--dim)}
        .scroll{overflow-x:auto}
        table#exchanges{border-collapse:collapse;width:100%}
        #exchanges thead th{position:sticky;top:0;background:var(--soft);text-align:left;\
        border-bottom:2px solid var(--line);padding:4px 6px}
        #exchanges tbody{border-top:1px solid var(--line)}
        #exchanges tr.main>*{padding:4px 6px;vertical-align:top;text-align:left;font-weight:normal}
        #exchanges tbody.o-error tr.main{background:#fff5f5}#exchanges tbody.o-warning tr.main{background:#fffbea}
        .file{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
        td.url{word-break:break-all;max-width:360px;font-family:ui-monospace,monospace;font-size:12px}
        ul.findings{margin:0;padding-left:16px}ul.findings li{margin:0}
        .sev-error b{color:#b42318}.sev-warning b{color:#8a5a00}.sev-note b{color:#57606a}
        tr.more td{padding:0 6px 4px}
        tr.more summary{cursor:pointer;color:#0b6e99;font-size:12px}
        .detail{border-left:3px solid var(--line);padding:4px 12px;margin:4px 0 8px}
        .fields{display:flex;flex-wrap:wrap;gap:16px}.fields section{flex:1 1 320px;min-width:0}
        table.kv{border-collapse:collapse;font-family:ui-monospace,monospace;font-size:12px}
        table.kv th{text-align:left;padding:1px 10px 1px 0;color:var(--dim);white-space:nowrap;vertical-align:top;\
        font-weight:normal}
        table.kv td{word-break:break-all}
        table.contract{margin:6px 0}table.contract caption{text-align:left;font-weight:bold;padding:2px 0}
        table.contract td{padding:1px 10px 1px 0;vertical-align:top}
        pre.text{white-space:pre-wrap;word-break:break-all;background:var(--soft);padding:8px;max-height:420px;\
        overflow:auto;margin:4px 0}
        ul.tree{font-family:ui-monospace,monospace;font-size:12px;list-style:none;padding-left:0;margin:4px 0}
        ul.tree ul{list-style:none;padding-left:18px;margin:0}
        .key{color:#6f42c1}.str{color:#0a3069}.num{color:#0550ae}.lit{color:#8a5a00}.dim{color:var(--dim)}
        .cut{color:#8a5a00;font-style:italic}
        li.diff>span,li.diff>details>summary,li.diff{background:#ffebe9}
        li.diff{outline:1px solid #b42318}
        .side{display:flex;gap:16px;flex-wrap:wrap}.side section{flex:1 1 320px;min-width:0;\
        border:1px solid var(--line);padding:4px 8px}
        .mislabel{background:#fffbea;border:1px solid #8a5a00;padding:4px 8px;display:inline-flex;gap:4px}
        figure.image{margin:4px 0}figure.image img{border:1px solid var(--line);image-rendering:pixelated;\
        max-width:480px;height:auto;background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
        table.csv{border-collapse:collapse;font-size:12px}table.csv th,table.csv td{border:1px solid var(--line);\
        padding:2px 6px;text-align:left}
        .pager{display:flex;gap:10px;align-items:center;margin:8px 0}
        .unreadable{font-size:13px}
        :focus-visible{outline:2px solid #0b6e99;outline-offset:2px}
        """

    /// Reads the rows' filter fields, fills the filters, pages and filters the rows (parsing a
    /// block of rows' HTML when a page first needs one), and fills a row's details when it is
    /// first opened. Rows are HTML the reporter rendered; the
    /// script sets no recorded text itself except through `textContent` and `option.text`.
    static func script(rowsPerPage: Int) -> String {
        """
        (function(){"use strict";
        var t0=performance.now();
        var rows=[];document.querySelectorAll("script.parley-rows").forEach(function(s){\
        var a=JSON.parse(s.textContent);for(var i=0;i<a.length;i++)rows.push(a[i]);});
        var table=document.getElementById("exchanges"),shown=document.getElementById("shown"),\
        pager=document.getElementById("pager");
        var prev=document.getElementById("prev"),next=document.getElementById("next"),\
        pageText=document.getElementById("page");
        var f={outcome:document.getElementById("f-outcome"),kind:document.getElementById("f-kind"),\
        format:document.getElementById("f-format"),status:document.getElementById("f-status"),\
        text:document.getElementById("f-text")};
        var blocks=[];document.querySelectorAll("script.parley-html").forEach(function(s){\
        blocks.push({first:+s.getAttribute("data-first"),el:s,rows:null});});
        function content(i){var lo=0,hi=blocks.length-1,b=null;while(lo<=hi){var m=(lo+hi)>>1;\
        if(blocks[m].first<=i){b=blocks[m];lo=m+1;}else hi=m-1;}
        if(!b.rows)b.rows=JSON.parse(b.el.textContent);return b.rows[i-b.first];}
        var perPage=\(rowsPerPage),page=0,matched=rows,cache={};
        table.querySelectorAll("tbody[data-row]").forEach(function(b){cache[b.getAttribute("data-row")]=b;});
        var kinds={},formats={};
        rows.forEach(function(r){r.q=(r.p+"#"+r.x+" "+r.u).toLowerCase();r.k.forEach(function(k){kinds[k]=1;});\
        if(r.f)formats[r.f]=1;});
        function fill(sel,obj){Object.keys(obj).sort().forEach(function(v){var o=document.createElement("option");\
        o.value=v;o.text=v;sel.appendChild(o);});}
        fill(f.kind,kinds);fill(f.format,formats);
        function statusClass(s){return s>=100&&s<600?String(Math.floor(s/100)):"other";}
        function matches(r,c){
        if(c.outcome&&r.o!==c.outcome)return false;
        if(c.kind&&r.k.indexOf(c.kind)<0)return false;
        if(c.format&&r.f!==c.format)return false;
        if(c.status&&statusClass(r.s)!==c.status)return false;
        if(c.text&&r.q.indexOf(c.text)<0)return false;
        return true;}
        function node(r){var b=cache[r.i];if(b)return b;
        b=document.createElement("tbody");b.setAttribute("data-row",r.i);b.className="o-"+r.o;var c=content(r.i);\
        b.innerHTML=c[0];cache[r.i]=b;
        var d=b.querySelector("details");if(d){d.addEventListener("toggle",\
        function(){if(d.open&&!d.hasAttribute("data-filled")){d.setAttribute("data-filled","");\
        d.insertAdjacentHTML("beforeend",c[1]);}});}
        return b;}
        function render(){var s=performance.now();
        table.querySelectorAll("tbody[data-row]").forEach(function(b){b.remove();});
        var pages=Math.max(1,Math.ceil(matched.length/perPage));if(page>=pages)page=pages-1;
        var frag=document.createDocumentFragment(),from=page*perPage,to=Math.min(matched.length,from+perPage);
        for(var i=from;i<to;i++)frag.appendChild(node(matched[i]));
        table.appendChild(frag);
        shown.textContent=matched.length===rows.length?("Showing "+(to>from?(from+1)+"–"+to:"0")+" of "+rows.length+\
        " exchanges"):("Showing "+(to>from?(from+1)+"–"+to:"0")+" of "+matched.length+\
        " matching exchanges ("+rows.length+" in all)");
        shown.setAttribute("data-matched",matched.length);
        pageText.textContent="Page "+(page+1)+" of "+pages;prev.disabled=page===0;next.disabled=page>=pages-1;\
        pager.hidden=pages<2;
        document.documentElement.setAttribute("data-render-ms",(performance.now()-s).toFixed(1));}
        function apply(){var c={outcome:f.outcome.value,kind:f.kind.value,format:f.format.value,status:f.status.value,\
        text:f.text.value.trim().toLowerCase()};
        matched=rows.filter(function(r){return matches(r,c);});page=0;render();}
        ["outcome","kind","format","status"].forEach(function(k){f[k].addEventListener("change",apply);});
        f.text.addEventListener("input",apply);
        document.getElementById("filters").addEventListener("submit",function(e){e.preventDefault();});
        prev.addEventListener("click",function(){page--;render();});next.addEventListener("click",function(){page++;\
        render();});
        document.getElementById("filters").hidden=false;
        render();
        document.documentElement.setAttribute("data-ready",(performance.now()).toFixed(1));
        document.documentElement.setAttribute("data-init-ms",(performance.now()-t0).toFixed(1));
        })();
        """
    }
}
