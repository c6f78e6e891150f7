//! The lab's reports (`docs/lab`, built into the binary) as pages: an index, each report's
//! Markdown as HTML, and its plots and tables as files.

use pulldown_cmark::{html, Options, Parser};

include!(concat!(env!("OUT_DIR"), "/lab_files.rs"));

/// `text` with the HTML special characters escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A page around `body`.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <link rel=\"stylesheet\" href=\"/style.css\"></head><body class=\"lab\">\
         <nav><a href=\"/\">prune</a> · <a href=\"/lab/\">lab reports</a></nav>{body}</body></html>",
        escape(title)
    )
}

/// The report folders, in order.
fn reports() -> Vec<&'static str> {
    let mut names: Vec<&str> = LAB_FILES
        .iter()
        .filter_map(|(path, _)| path.strip_suffix("/report.md"))
        .collect();
    names.sort_unstable();
    names
}

/// The title of a report: its first heading.
fn title(markdown: &str) -> &str {
    markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or("report")
}

/// The index of the reports.
pub fn index() -> String {
    let mut body = String::from("<h1>Lab reports</h1><p>The reports of <code>prune lab</code>'s default runs, as in docs/lab.</p><ul>");
    for name in reports() {
        let text =
            file(name, "report.md").map_or("", |(_, b)| std::str::from_utf8(b).unwrap_or(""));
        body.push_str(&format!(
            "<li><a href=\"/lab/{0}/\">{0}</a>: {1}</li>",
            escape(name),
            escape(title(text))
        ));
    }
    body.push_str("</ul>");
    page("prune lab reports", &body)
}

/// The report `name` as a page (`None`: no such report).
pub fn report_page(name: &str) -> Option<String> {
    let (_, bytes) = file(name, "report.md")?;
    let markdown = std::str::from_utf8(bytes).ok()?;
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    let mut body = String::new();
    html::push_html(&mut body, Parser::new_ext(markdown, options));
    Some(page(title(markdown), &body))
}

/// The file `file` of report `name`, with its content type.
pub fn file(name: &str, file: &str) -> Option<(&'static str, &'static [u8])> {
    let path = format!("{name}/{file}");
    let (_, bytes) = LAB_FILES.iter().find(|(p, _)| *p == path)?;
    let content_type = match file.rsplit('.').next() {
        Some("svg") => "image/svg+xml",
        Some("csv") => "text/csv; charset=utf-8",
        Some("json") => "application/json",
        Some("md") | Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    Some((content_type, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_report_is_built_in_and_renders() {
        let names = reports();
        assert!(
            names.contains(&"probcut") && names.contains(&"mcts-vs-alphabeta"),
            "{names:?}"
        );
        let page = report_page("mcts-vs-alphabeta").unwrap();
        assert!(page.contains("<table>") && page.contains("mcts-strength.svg"));
        assert_eq!(
            file("mcts-vs-alphabeta", "mcts-strength.svg").unwrap().0,
            "image/svg+xml"
        );
        assert!(file("..", "Cargo.toml").is_none() && report_page("../..").is_none());
        assert!(index().contains("/lab/probcut/"));
    }
}
