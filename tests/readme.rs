//! The README's subcommand table lists exactly the subcommands `menhir --help` offers, and
//! every page of `docs/` it links exists. Run: `cargo test --test readme`.

use std::collections::BTreeSet;
use std::process::Command;

const README: &str = include_str!("../README.md");

/// The subcommands of `menhir --help` (its "Commands:" block, without clap's own `help`).
fn help_subcommands() -> BTreeSet<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_menhir"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_owned)
        .collect()
}

/// The subcommands of the README's table: its rows ``| `menhir NAME` | … |``.
fn readme_subcommands() -> BTreeSet<String> {
    let section = README
        .split("\n## Subcommands\n")
        .nth(1)
        .expect("README has a Subcommands section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `menhir "))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_readme_lists_every_subcommand_and_no_other() {
    let help = help_subcommands();
    assert!(help.len() >= 10, "{help:?}");
    assert_eq!(readme_subcommands(), help);
}

#[test]
fn every_docs_page_the_readme_links_exists_and_links_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let pages: Vec<&str> = README
        .split("](docs/")
        .skip(1)
        .map(|rest| rest.split([')', '#']).next().unwrap())
        .collect();
    for page in ["tei.md", "matches.md", "cluster.md", "training.md"] {
        assert!(pages.contains(&page), "README does not link docs/{page}");
    }
    for page in pages {
        let text = std::fs::read_to_string(root.join("docs").join(page))
            .unwrap_or_else(|e| panic!("docs/{page}: {e}"));
        assert!(
            text.contains("](../README.md)"),
            "docs/{page} has no link back"
        );
    }
}
