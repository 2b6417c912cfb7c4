//! `menhir annotate` end to end: a `menhir match` PTN file (tests/data/match.ptn, two 5×5
//! games written by `menhir match --engine name=menhir-a,cmd=menhir --engine
//! name=menhir-b,cmd=menhir --size 5 --komi 2 --games 2 --movetime 15 --seed 7
//! --random-plies 2`) annotated at a small node budget with every move commented and read
//! back by `menhir report` with the same results; constructed games whose blunders and tinue
//! must be marked; the prover hook deciding the tinue mark; bad PTN refused with the game and
//! move named and nothing written; `--plot`'s SVG parsed: one point a ply, each in its mark's
//! colour, one file a game, a bad plot path refused before the analysis.
//! Run: `cargo test --test annotate` (a few seconds).

use menhir::analysis::{
    annotate_game, marker_colour, Judgement, Outcome, Proof, SearchMates, TinueProver,
    BLUNDER_DROP, GOOD_GAIN, MISTAKE_DROP,
};
use menhir::core::{GameRecord, Position};
use menhir::search::{Info, Limits, Searcher};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MENHIR: &str = env!("CARGO_BIN_EXE_menhir");

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A fresh directory for test `test`.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menhir-annotate-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(MENHIR).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `menhir annotate FILE --nodes N --quiet` on `ptn` written to a file; the annotated text.
fn annotate(test: &str, ptn: &str, nodes: u32) -> String {
    let dir = temp_dir(test);
    let file = dir.join("in.ptn");
    std::fs::write(&file, ptn).unwrap();
    let nodes = nodes.to_string();
    let out = run(&[
        "annotate",
        file.to_str().unwrap(),
        "--nodes",
        &nodes,
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "--quiet: {}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    text(&out.stdout)
}

/// The move tokens of the movetext (marks kept), in order, without move numbers, comments
/// or the result.
fn move_tokens(ptn: &str) -> Vec<String> {
    let movetext: String = ptn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut tokens = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 && !c.is_whitespace() => current.push(c),
            _ => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
        .into_iter()
        .filter(|t| !t.ends_with('.') && t != "--")
        .filter(|t| {
            ![
                "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0", "*",
            ]
            .contains(&t.as_str())
        })
        .collect()
}

/// A 5×5 game from `tps` between players a and b.
fn game(tps: &str, moves: &str, result: &str) -> String {
    format!(
        "[Player1 \"a\"]\n[Player2 \"b\"]\n[Size \"5\"]\n[Result \"{result}\"]\n[TPS \"{tps}\"]\n\n{moves} {result}\n"
    )
}

#[test]
fn a_match_file_is_annotated_move_by_move_and_reports_the_same() {
    let dir = temp_dir("match");
    let out_file = dir.join("annotated.ptn");
    let input = data("match.ptn");
    let out = run(&[
        "annotate",
        input.to_str().unwrap(),
        "--nodes",
        "2000",
        "--threads",
        "2",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Written to the file, not stdout; progress on stderr, one line per game off a terminal.
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("annotate: 2/2 games, 88/88 positions"),
        "{stderr}"
    );

    let original = GameRecord::parse_all(&std::fs::read_to_string(&input).unwrap()).unwrap();
    let annotated_text = std::fs::read_to_string(&out_file).unwrap();
    let annotated = GameRecord::parse_all(&annotated_text).unwrap();
    assert_eq!(annotated.len(), original.len());
    for (a, o) in annotated.iter().zip(&original) {
        assert_eq!(a.tags, o.tags);
        assert_eq!(a.start_tps, o.start_tps);
        assert_eq!(a.result, o.result);
        assert_eq!(a.plies.len(), o.plies.len());
        for (i, (pa, po)) in a.plies.iter().zip(&o.plies).enumerate() {
            assert_eq!(pa.mv, po.mv);
            // Ours first (PTN Ninja reads the first evaluation), then the match's own.
            let comment = pa.comment.as_deref().unwrap_or("");
            let first = comment.split_whitespace().next().unwrap_or("");
            assert!(
                first.starts_with('+') || first.starts_with('-'),
                "ply {i}: {comment}"
            );
            assert!(
                comment.contains(" wdl:") && comment.contains(" cp:"),
                "ply {i}: {comment}"
            );
            assert!(
                comment.ends_with(po.comment.as_deref().unwrap()),
                "ply {i}: {comment}"
            );
        }
    }
    // Each game's last ply made the road: a sure win for White in White's view.
    for game in &annotated {
        let last = game.plies.last().unwrap().comment.as_deref().unwrap();
        assert!(
            last.starts_with("+1.00 wdl:100.0,0.0,0.0 cp:10000"),
            "{last}"
        );
    }

    let report = |file: &Path| text(&run(&["report", file.to_str().unwrap()]).stdout);
    let before = report(&input);
    assert!(before.contains("Read 2 games"), "{before}");
    assert_eq!(report(&out_file), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn racetrack_and_ptn_ninja_files_are_read() {
    // Racetrack: `N...` first plies, score comments, time losses, a crash, a game with no
    // moves, one stopped at the move cap; the report reads the same results back.
    let dir = temp_dir("racetrack");
    let out_file = dir.join("annotated.ptn");
    let input = data("racetrack.ptn");
    let out = run(&[
        "annotate",
        input.to_str().unwrap(),
        "--nodes",
        "500",
        "--quiet",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = |file: &Path| text(&run(&["report", file.to_str().unwrap()]).stdout);
    assert!(report(&input).contains("Read 7 games"));
    assert_eq!(report(&out_file), report(&input));
    let _ = std::fs::remove_dir_all(&dir);

    // PTN Ninja: its tags, marks and notes on moves, and a variation after the main line,
    // which is left out.
    let ninja = "[Date \"2026.12.01\"]\n[Player1 \"p\"]\n[Player2 \"q\"]\n[Size \"5\"]\n\
        [Opening \"swap\"]\n[Result \"\"]\n\n1. a1 {first} e5\n2. b1' a2!? {a note}\n\n{2b1}\n2. -- c3\n";
    let annotated = annotate("ninja", ninja, 500);
    // The file's own marks give way to the analysis's (none here: quiet opening moves).
    assert_eq!(
        move_tokens(&annotated),
        ["a1", "e5", "b1", "a2"],
        "{annotated}"
    );
    assert!(annotated.contains("[Opening \"swap\"]"));
    let record = GameRecord::parse(&annotated).unwrap();
    assert!(record.plies[0]
        .comment
        .as_deref()
        .unwrap()
        .ends_with(" first"));
    assert!(record.plies[3]
        .comment
        .as_deref()
        .unwrap()
        .ends_with(" a note"));
    assert!(!annotated.contains("{2b1}"), "{annotated}");
}

#[test]
fn parallel_games_give_what_one_thread_gives_in_file_order() {
    // One search thread a game and the same table a game (2 MB): the same text whether the
    // two games run one after the other or side by side.
    let input = data("match.ptn");
    let annotated = |threads: &str, hash: &str| {
        let out = run(&[
            "annotate",
            input.to_str().unwrap(),
            "--nodes",
            "1500",
            "--quiet",
            "--threads",
            threads,
            "--hash",
            hash,
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let serial = annotated("1", "2");
    assert_eq!(annotated("2", "4"), serial);
    assert!(serial.contains("[Round \"1\"]"));
    assert!(serial.find("[Round \"1\"]") < serial.find("[Round \"2\"]"));
}

#[test]
fn bad_flags_are_refused() {
    let input = data("match.ptn");
    let file = input.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["--nodes", "10", "--movetime", "10"],
            "cannot be used with",
        ),
        (vec!["--threads", "0"], "bad --threads"),
        (vec!["--nodes", "0"], "bad budget"),
        (vec!["--hash", "0"], "bad --hash"),
    ] {
        let out = run(&[&["annotate", file][..], &args[..]].concat());
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty());
    }
    let out = run(&["annotate", "/nonexistent/games.ptn", "--nodes", "10"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cannot read /nonexistent/games.ptn"));
}

#[test]
fn allowing_a_road_in_one_is_a_blunder() {
    // Black threatens e1 (the e-file); White must block there and plays c3 instead.
    let ptn = game("x4,2/x4,2/x4,2/x4,2/1,1,1,x2 1 5", "5. c3 e1", "0-R");
    let annotated = annotate("allow", &ptn, 3000);
    assert_eq!(move_tokens(&annotated), ["c3??", "e1"], "{annotated}");
    let record = GameRecord::parse(&annotated).unwrap();
    let c3 = record.plies[0].comment.as_deref().unwrap();
    // White's view: lost; the engine would have blocked on e1.
    assert!(c3.starts_with("-1.00/"), "{c3}");
    assert!(c3.contains("Black wins by force in 1 ply"), "{c3}");
    let pv = c3.split(" pv ").nth(1).expect("the engine's move differs");
    assert!(
        pv.split_whitespace().next().unwrap().ends_with("e1"),
        "{c3}"
    );
    assert!(annotated.trim_end().ends_with("0-R"));
}

#[test]
fn missing_a_road_in_one_is_a_blunder_and_the_threat_left_is_tak() {
    // White has a road at e1 and plays c5: still a threat (tak), but the win is gone.
    let ptn = game("x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 5", "5. c5 Se1", "*");
    let annotated = annotate("miss", &ptn, 3000);
    assert_eq!(move_tokens(&annotated), ["c5'??", "Se1"], "{annotated}");
    let record = GameRecord::parse(&annotated).unwrap();
    let c5 = record.plies[0].comment.as_deref().unwrap();
    assert!(c5.ends_with(" pv e1"), "{c5}");
}

#[test]
fn a_double_threat_is_tinue() {
    // a1 joins the a-file and the first rank at once: roads at a5 and e1, one block only.
    let ptn = game(
        "x5/1,x,2,2,x/1,x,2,2,x/1,x4/x,1,1,1,x 1 6",
        "6. a1 e1 7. a5",
        "R-0",
    );
    let annotated = annotate("tinue", &ptn, 3000);
    let tokens = move_tokens(&annotated);
    assert_eq!(tokens, ["a1\"", "e1", "a5"], "{annotated}");
    let record = GameRecord::parse(&annotated).unwrap();
    let a1 = record.plies[0].comment.as_deref().unwrap();
    assert!(a1.contains("White wins by force in 2 plies"), "{a1}");
    assert!(a1.starts_with("+1.00/"), "{a1}");
}

#[test]
fn a_tinue_beyond_the_search_is_found_by_the_solver() {
    // 4x4: c2 starts a forced road nine plies long; 300 search nodes cannot see its end, the
    // tinue solver (menhir annotate's prover) proves it within the same budget.
    let ptn = "[Player1 \"a\"]\n[Player2 \"b\"]\n[Size \"4\"]\n[TPS \"x4/x4/x,1,x2/1,1,x,2 1 5\"]\n\n5. c2 *\n";
    let annotated = annotate("solver", ptn, 300);
    assert_eq!(move_tokens(&annotated), ["c2\""], "{annotated}");
    let record = GameRecord::parse(&annotated).unwrap();
    let c2 = record.plies[0].comment.as_deref().unwrap();
    assert!(c2.contains("White wins by force in 8 plies"), "{c2}");
}

/// A prover that knows one position is lost for the side to move (as a solver would, beyond
/// the search's reach) and nothing else.
struct Oracle {
    lost: Position,
    asked: usize,
}

impl TinueProver for Oracle {
    fn prove(&mut self, pos: &Position, _limits: &Limits, _searched: &Info) -> Option<Proof> {
        self.asked += 1;
        (pos.to_tps() == self.lost.to_tps()).then(|| Proof {
            outcome: Outcome::Loss,
            plies: 12,
            line: Vec::new(),
        })
    }
}

#[test]
fn the_prover_decides_tinue_and_the_evaluation() {
    // A quiet opening: the search proves nothing, the oracle proves the position after
    // White's third ply lost for Black.
    let record = GameRecord::parse("[Size \"5\"]\n\n1. a1 e5 2. c3 c2 3. d3 b2 *\n").unwrap();
    let mut after = record.start_position().unwrap();
    for ply in &record.plies[..5] {
        after.do_move(ply.mv);
    }
    let mut oracle = Oracle {
        lost: after,
        asked: 0,
    };
    let limits = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(2, 1);
    let plies = annotate_game(&record, &limits, &mut searcher, &mut oracle, &mut || {}).unwrap();
    // Asked in every position the game reached, none of them finished.
    assert_eq!(oracle.asked, 7);
    let marks: Vec<String> = plies.iter().map(|p| p.marks.text()).collect();
    // The tinue mark; `!` too when the search would have played another move (the ply is then
    // judged by the jump to a forced win, which depends on the evaluation's weights).
    assert!(marks[4] == "\"" || marks[4] == "\"!", "{plies:?}");
    assert!(
        plies[4].comment.starts_with("+1.00/"),
        "{}",
        plies[4].comment
    );
    assert!(plies[4].comment.contains("White wins by force in 12 plies"));
    // No other ply is tinue, and none but the fifth claims a forced win.
    for (i, p) in plies.iter().enumerate().filter(|(i, _)| *i != 4) {
        assert!(!p.marks.tinue, "ply {i}: {p:?}");
        assert!(!p.comment.contains("by force"), "ply {i}: {p:?}");
    }

    // The default prover, SearchMates, proves only what the search's own score does.
    let pos = Position::from_tps("x5/1,x,2,2,x/1,x,2,2,x/1,x4/x,1,1,1,x 2 6").unwrap();
    let mut info = Info {
        score_cp: 35,
        ..Info::default()
    };
    assert_eq!(SearchMates.prove(&pos, &limits, &info), None);
    info.score_cp = -(menhir::search::WIN - 2);
    let proof = SearchMates.prove(&pos, &limits, &info).unwrap();
    assert_eq!((proof.outcome, proof.plies), (Outcome::Loss, 2));
}

/// A prover proving a win for the side to move wherever `wins` says so.
struct Claims<F: Fn(&Position) -> bool + Send> {
    wins: F,
}

impl<F: Fn(&Position) -> bool + Send> TinueProver for Claims<F> {
    fn prove(&mut self, pos: &Position, _limits: &Limits, _searched: &Info) -> Option<Proof> {
        (self.wins)(pos).then(|| Proof {
            outcome: Outcome::Win,
            plies: 12,
            line: Vec::new(),
        })
    }
}

#[test]
fn a_defence_that_had_no_better_is_not_a_blunder() {
    // White threatens e1 and Black blocks it (a flat, a wall or the capstone: whichever the
    // engine does not choose, so the block is judged; which one it chooses is the evaluation's
    // business). Proven lost after the block only, the block walked into the loss: a blunder.
    // Proven lost after any Black move (every position of that ply, the engine's choice
    // included), it was lost anyway: judged on its odds alone, which fell less than a blunder's.
    let limits = Limits {
        nodes: Some(3000),
        ..Limits::default()
    };
    let record = |block: &str| {
        GameRecord::parse(&game(
            "x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 5",
            &format!("5. c5 {block}"),
            "*",
        ))
        .unwrap()
    };
    let annotate = |record: &GameRecord, prover: &mut dyn TinueProver| {
        let mut searcher = Searcher::new(2, 1);
        annotate_game(record, &limits, &mut searcher, prover, &mut || {}).unwrap()
    };
    let mut no_claims = Claims {
        wins: |_: &Position| false,
    };
    // The comment shows the engine's line only where the move played was not the engine's.
    let block = ["e1", "Se1", "Ce1"]
        .into_iter()
        .map(record)
        .find(|block| annotate(block, &mut no_claims)[1].comment.contains(" pv "))
        .expect("the engine prefers at most one of three blocks");
    let judge = |prover: &mut dyn TinueProver| {
        let plies = annotate(&block, prover);
        assert!(plies[1].comment.contains("White wins by force in 12 plies"));
        assert_ne!(plies[1].comment.split(" pv ").nth(1), None, "{plies:?}");
        plies[1].marks.judgement
    };
    let played = block.plies[1].mv.to_ptn();
    let only_block = block.replay().unwrap().to_tps();
    let mut one = Claims {
        wins: move |p: &Position| p.to_tps() == only_block,
    };
    assert_eq!(judge(&mut one), Some(Judgement::Blunder), "{played}");
    let mut every = Claims {
        wins: |p: &Position| p.ply() == 10,
    };
    assert_ne!(judge(&mut every), Some(Judgement::Blunder), "{played}");
}

#[test]
fn judgements_follow_the_documented_thresholds() {
    let just = 0.001;
    let judge = |before: f64, after: f64| Judgement::of(before, after, false);
    assert_eq!(
        judge(0.6, 0.6 - BLUNDER_DROP - just),
        Some(Judgement::Blunder)
    );
    assert_eq!(
        judge(0.6, 0.6 - BLUNDER_DROP + just),
        Some(Judgement::Mistake)
    );
    assert_eq!(
        judge(0.6, 0.6 - MISTAKE_DROP - just),
        Some(Judgement::Mistake)
    );
    assert_eq!(judge(0.6, 0.6 - MISTAKE_DROP + just), None);
    assert_eq!(judge(0.4, 0.4 + GOOD_GAIN + just), Some(Judgement::Good));
    assert_eq!(judge(0.4, 0.4 + GOOD_GAIN - just), None);
    // The engine's own move is never judged against itself.
    assert_eq!(Judgement::of(0.9, 0.0, true), None);
}

/// `menhir annotate` on `ptn` among good games must fail with one line holding all of
/// `expected`, and write nothing.
fn refused(test: &str, ptn: &str, expected: &[&str]) {
    let dir = temp_dir(test);
    let file = dir.join("in.ptn");
    let good = game("x5/x5/x5/2,2,2,x2/1,1,1,1,x 1 5", "5. e1", "R-0");
    std::fs::write(&file, format!("{good}\n{ptn}")).unwrap();
    let out_file = dir.join("out.ptn");
    let out = run(&[
        "annotate",
        file.to_str().unwrap(),
        "--nodes",
        "500",
        "--quiet",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for part in expected {
        assert!(stderr.contains(part), "'{part}' not in: {stderr}");
    }
    assert!(!out_file.exists());
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_ptn_is_refused_naming_the_game_and_move() {
    let tags = "[Player1 \"x\"]\n[Player2 \"y\"]\n[Round \"7\"]\n[Size \"5\"]\n\n";
    // Not a move at all.
    refused(
        "unknown",
        &format!("{tags}1. a1 e5 2. b2 Cz9 *\n"),
        &[
            "in.ptn: game 2 (x vs y, round 7)",
            "'Cz9'",
            "move 2 (Black)",
            "not a square",
        ],
    );
    // A move onto an occupied square.
    refused(
        "illegal",
        &format!("{tags}1. a1 e5 2. b2 c3 3. c3 *\n"),
        &[
            "game 2 (x vs y, round 7)",
            "move 3 (White)",
            "c3 is occupied",
        ],
    );
    // A tag without quotes: the game is named by number and line.
    refused(
        "tag",
        "[Size \"5\"]\n[Player1 x]\n\n1. a1 e5 *\n",
        &["game 2", "line ", "bad tag [Player1 x]"],
    );
    // A move number from a TPS start counts as its tag says.
    refused(
        "tps",
        "[Size \"5\"]\n[TPS \"x5/x5/x5/2,2,2,x2/1,1,1,1,x 2 9\"]\n\n9. -- e2 10. a1 *\n",
        &["game 2", "move 10 (White)", "a1 is occupied"],
    );
}

/// The marks of each side in annotated movetext (comments dropped): `[White, Black]` counts of
/// `??`, `?`, `!`.
fn marks_by_side(annotated: &str) -> [[usize; 3]; 2] {
    let mut plain = String::new();
    let mut depth = 0;
    for c in annotated.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut counts = [[0; 3]; 2];
    let mut side = 0;
    for line in plain.lines().filter(|l| !l.starts_with('[')) {
        for token in line.split_whitespace() {
            if token.ends_with('.') {
                continue;
            }
            if token == "--" {
                side = 1;
                continue;
            }
            if [
                "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0", "*",
            ]
            .contains(&token)
            {
                continue;
            }
            let kind = if token.ends_with("??") {
                Some(0)
            } else if token.ends_with('?') {
                Some(1)
            } else if token.ends_with('!') {
                Some(2)
            } else {
                None
            };
            if let Some(k) = kind {
                counts[side][k] += 1;
            }
            side = 1 - side;
        }
    }
    counts
}

/// The report's counts: `[White, Black]` of `??`, `?`, `!`.
fn reported_marks(annotated: &str) -> [[usize; 3]; 2] {
    let mut counts = [[0; 3]; 2];
    for (side, color) in ["White: ", "Black: "].iter().enumerate() {
        let line = annotated
            .lines()
            .find(|l| l.starts_with(color))
            .unwrap_or_else(|| panic!("no {color} report line in {annotated}"));
        let tail = line.split("; ").nth(1).unwrap();
        for (k, part) in tail.split(", ").enumerate() {
            counts[side][k] = part.split_whitespace().nth(1).unwrap().parse().unwrap();
        }
    }
    counts
}

#[test]
fn the_report_counts_exactly_the_marks_of_each_game() {
    let ptn = std::fs::read_to_string(data("match.ptn")).unwrap();
    let annotated = annotate("report", &ptn, 3000);
    let games: Vec<&str> = annotated.split("{Menhir game report").skip(1).collect();
    assert_eq!(games.len(), 2, "{annotated}");
    let mut marks_seen = 0;
    for game in games {
        // The game's own text runs to the next game's tags.
        let game = game.split("\n[").next().unwrap();
        let (report, moves) = game.split_once('}').unwrap();
        assert!(report.contains("First tinue missed: "), "{report}");
        assert!(report.contains("Game lost at: "), "{report}");
        let marks = marks_by_side(moves);
        assert_eq!(reported_marks(report), marks, "{game}");
        marks_seen += marks.iter().flatten().sum::<usize>();
    }
    assert!(marks_seen > 0, "no marks at all: nothing was checked");
}

/// A point of a `--plot` chart: a `<circle>`'s centre, radius and fill.
#[derive(Debug)]
struct Point {
    x: f64,
    y: f64,
    r: f64,
    fill: String,
}

/// The SVG of `file`, checked to be one well-formed `<svg>` document: its circles (the
/// points, in document order) and its legend's squares, each fill with the label beside it.
fn read_plot(file: &Path) -> (Vec<Point>, Vec<(String, String)>) {
    let svg = std::fs::read_to_string(file).unwrap();
    assert!(svg.trim_start().starts_with("<svg"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let attr = |node: roxmltree::Node, name: &str| node.attribute(name).unwrap().to_string();
    let number = |node: roxmltree::Node, name: &str| attr(node, name).parse::<f64>().unwrap();
    let elements: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.is_element()).collect();
    let points = elements
        .iter()
        .filter(|n| n.has_tag_name("circle"))
        .map(|&n| Point {
            x: number(n, "cx"),
            y: number(n, "cy"),
            r: number(n, "r"),
            fill: attr(n, "fill"),
        })
        .collect();
    // The legend: each small square with the label right of it on its row (a label's `y` is
    // its top).
    let labels: Vec<(f64, f64, f64, String)> = elements
        .iter()
        .filter(|n| n.has_tag_name("text"))
        .map(|&n| {
            let (x, y) = (number(n, "x"), number(n, "y"));
            let text = n.text().unwrap_or("").trim().to_string();
            (x, y, y + number(n, "font-size"), text)
        })
        .collect();
    let legend = elements
        .iter()
        .filter(|n| n.has_tag_name("rect") && number(**n, "width") < 30.0)
        .map(|&n| {
            let right = number(n, "x") + number(n, "width");
            let middle = number(n, "y") + number(n, "height") / 2.0;
            let label = labels
                .iter()
                .filter(|(x, top, bottom, _)| *x >= right && (*top..=*bottom).contains(&middle))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map_or(String::new(), |(.., text)| text.clone());
            (attr(n, "fill"), label)
        })
        .collect();
    (points, legend)
}

fn fill(judgement: Option<Judgement>) -> String {
    let [r, g, b] = marker_colour(judgement);
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// The judgement mark ending a move token (`c3'??`).
fn judgement(token: &str) -> Option<Judgement> {
    if token.ends_with("??") {
        Some(Judgement::Blunder)
    } else if token.ends_with('?') {
        Some(Judgement::Mistake)
    } else if token.ends_with('!') {
        Some(Judgement::Good)
    } else {
        None
    }
}

/// Checks `file`, the plot of the annotated game `game`: one circle a ply, left to right, in
/// the colour of the ply's mark (the legend's square for that mark), higher where the comment
/// gives White more. The judgements of the plies.
fn check_plot(file: &Path, game: &str) -> Vec<Option<Judgement>> {
    let (points, legend) = read_plot(file);
    let marks: Vec<Option<Judgement>> = move_tokens(game).iter().map(|t| judgement(t)).collect();
    assert_eq!(points.len(), marks.len(), "{game}");
    for (label, mark) in [
        ("move", None),
        ("! ", Some(Judgement::Good)),
        ("? ", Some(Judgement::Mistake)),
        ("?? ", Some(Judgement::Blunder)),
    ] {
        assert!(
            legend
                .iter()
                .any(|(f, text)| *f == fill(mark) && text.starts_with(label)),
            "no legend square for {label:?}: {legend:?}"
        );
    }
    for (i, (point, mark)) in points.iter().zip(&marks).enumerate() {
        assert_eq!(point.fill, fill(*mark), "ply {i}: {point:?} {game}");
        let plain = points.iter().zip(&marks).find(|(_, m)| m.is_none());
        if let (Some(_), Some((plain, _))) = (mark, plain) {
            assert!(point.r > plain.r, "ply {i}: a mark stands out: {point:?}");
        }
    }
    assert!(points.windows(2).all(|w| w[0].x < w[1].x), "{points:?}");
    // White's view: the comments' expected score (−1 to +1, two decimals) against the height.
    let record = GameRecord::parse(game).unwrap();
    let white: Vec<f64> = record
        .plies
        .iter()
        .map(|p| {
            let first = p.comment.as_deref().unwrap().split_whitespace().next();
            let value = first.unwrap().split('/').next().unwrap();
            value.parse().unwrap()
        })
        .collect();
    for (a, b) in (0..white.len()).flat_map(|a| (0..white.len()).map(move |b| (a, b))) {
        if white[a] > white[b] + 0.02 {
            // SVG's y grows downwards.
            assert!(
                points[a].y < points[b].y,
                "plies {a}, {b}: {points:?} {white:?}"
            );
        }
    }
    marks
}

/// `menhir annotate` of `input` with `--plot` in `dir`: the annotated text and the plot path.
fn annotate_with_plot(dir: &Path, input: &Path, nodes: &str) -> (String, PathBuf) {
    let plot = dir.join("chances.svg");
    let out = run(&[
        "annotate",
        input.to_str().unwrap(),
        "--nodes",
        nodes,
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("annotate: "), "{stderr}");
    (text(&out.stdout), plot)
}

#[test]
fn the_plot_has_a_point_a_ply_in_its_marks_colour_and_a_file_a_game() {
    let dir = temp_dir("plot");
    let (annotated, plot) = annotate_with_plot(&dir, &data("match.ptn"), "3000");
    let games: Vec<String> = annotated
        .split("\n\n[")
        .enumerate()
        .map(|(i, g)| {
            if i == 0 {
                g.to_string()
            } else {
                format!("[{g}")
            }
        })
        .collect();
    assert_eq!(games.len(), 2, "{annotated}");
    let first = check_plot(&plot, &games[0]);
    let second = check_plot(&dir.join("chances-2.svg"), &games[1]);
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    // No temporary file left beside them.
    assert_eq!(files, ["chances-2.svg", "chances.svg"]);
    let marked = first.iter().chain(&second).filter(|m| m.is_some()).count();
    assert!(
        marked > 0,
        "no marks at all: their markers were not checked"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_blunder_is_plotted_as_one() {
    // The game of `allowing_a_road_in_one_is_a_blunder`: c3?? then Black's road, one file.
    let dir = temp_dir("plot-blunder");
    let input = dir.join("in.ptn");
    let ptn = game("x4,2/x4,2/x4,2/x4,2/1,1,1,x2 1 5", "5. c3 e1", "0-R");
    std::fs::write(&input, ptn).unwrap();
    let (annotated, plot) = annotate_with_plot(&dir, &input, "3000");
    let marks = check_plot(&plot, &annotated);
    assert_eq!(marks, [Some(Judgement::Blunder), None]);
    let (points, _) = read_plot(&plot);
    assert_eq!(points[0].fill, fill(Some(Judgement::Blunder)));
    assert!(!dir.join("chances-2.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_plot_path_is_refused_before_the_analysis() {
    let dir = temp_dir("plot-bad");
    let input = data("match.ptn");
    let folder = dir.join("folder.svg");
    std::fs::create_dir(&folder).unwrap();
    let missing = dir.join("no/such/dir/chances.svg");
    let png = dir.join("chances.png");
    for (plot, expected) in [
        (&missing, format!("cannot write {}: ", missing.display())),
        (&folder, format!("cannot write {}: ", folder.display())),
        (&png, format!("bad --plot {}", png.display())),
    ] {
        let out = run(&[
            "annotate",
            input.to_str().unwrap(),
            "--nodes",
            "500",
            "--plot",
            plot.to_str().unwrap(),
        ]);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{plot:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&expected), "{plot:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        // Refused before any game was analysed or written.
        assert!(out.stdout.is_empty(), "{plot:?}");
    }
    assert!(!png.exists() && !missing.exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "only the folder"
    );
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
