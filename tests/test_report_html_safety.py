"""The HTML report shows hostile text (findings, quotes, names) escaped, and fetches nothing."""
from __future__ import annotations

import copy
import re

from html_page import Page, fragment
from html_report_sample import RP, html, report  # noqa: F401 - fixtures html, report

from conformance.report.html import render_html

HOSTILE = ('<img src="https://evil.example/x.png"> <script>fetch("http://evil.example")</script> '
           '<a href="//evil.example">x</a> & "quotes"')


def hostile_report(report):
    bad = copy.deepcopy(report)
    bad["findings"][0]["message"] = HOSTILE
    bad["findings"][0]["details"]["case"]["self"] = HOSTILE
    bad["observations"][0]["behaviour"] = HOSTILE
    bad["clauses"][RP][0]["quote"] = HOSTILE
    bad["backend"]["name"] = HOSTILE
    return bad


def test_everything_is_escaped(report):
    html = render_html(hostile_report(report))
    page = Page(html)
    assert not {t for t, _ in page.tags} & {"script", "img"}
    assert all(a["href"].startswith("#") for t, a in page.tags if t == "a")
    assert html.count("&lt;img src=&#34;https://evil.example/x.png&#34;&gt;") >= 5
    assert HOSTILE in page.all_text()


URL_ATTRS = {"src", "href", "srcset", "action", "formaction", "poster", "data", "xlink:href", "background",
             "cite", "longdesc", "manifest", "ping"}


def test_no_network_fetches(html, report):
    for page_html in (html, render_html(hostile_report(report))):
        page = Page(page_html)
        tags = {t for t, _ in page.tags}
        assert not tags & {"script", "link", "iframe", "img", "object", "embed", "base", "audio", "video",
                           "source", "image", "use"}
        for tag, attrs in page.tags:
            for name, value in attrs.items():
                if name in URL_ATTRS:
                    assert value.startswith("#"), (tag, name, value)  # in-page anchors only
        assert not re.search(r"""(?i)(src|href)\s*=\s*["']?\s*(https?:)?//""", page_html)
        style = fragment(page_html, "<style>", "</style>")
        assert "url(" not in style and "@import" not in style
