//! Chat with people: the bot answers chat lines addressed to it (see [`addressed`]) with a
//! short reply, and, when the operator allows, takes a player's wishes for the next game (size,
//! clock, colour, strength level) within the operator's limits. A wish becomes a seek for that player alone,
//! held open for a while and then given up for the operator's own seek, so one player cannot
//! keep the bot for themselves. Replies are rate-limited ([`RateLimit`]); a line that gets no
//! reply is not acted on either, so the sender never wonders what happened.
//!
//! [`addressed`]: super::chat_command::addressed

use super::chat_command::{self, ChatCommand, Settings};
use super::protocol::{Seek, SeekColor};
use super::rate_limit::RateLimit;
use crate::core::{komi_text, starting_reserves};
use crate::search::level::FULL_STRENGTH;
use std::time::{Duration, Instant};

/// The server cuts a `Tell` at 256 characters.
const MAX_REPLY: usize = 256;

/// How much the bot says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChatMode {
    /// Never answers.
    Off,
    /// Answers with what it seeks; takes no wishes.
    Help,
    /// Answers, and takes wishes for the next game within the limits.
    #[default]
    Commands,
}

impl ChatMode {
    /// From `--chat`.
    pub fn parse(text: &str) -> Option<ChatMode> {
        match text.to_ascii_lowercase().as_str() {
            "off" => Some(ChatMode::Off),
            "help" => Some(ChatMode::Help),
            "commands" | "on" => Some(ChatMode::Commands),
            _ => None,
        }
    }
}

/// The operator's rules for chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatConfig {
    /// How much the bot says.
    pub mode: ChatMode,
    /// Sizes a player may ask for.
    pub sizes: Vec<usize>,
    /// Shortest time per player a player may ask for, in seconds.
    pub min_time_s: u32,
    /// Longest time per player, in seconds.
    pub max_time_s: u32,
    /// Largest increment, in seconds.
    pub max_increment_s: u32,
    /// Strength levels a player may ask for (empty: none, as for a TEI engine of the
    /// operator's, whose strength the bot does not set).
    pub levels: Vec<u32>,
    /// At most one reply per sender in this time.
    pub per_sender: Duration,
    /// At most this many replies in any `window`, over all senders.
    pub max_replies: usize,
    /// See `max_replies` (a minute from the command line).
    pub window: Duration,
    /// How long a seek made for one player stays theirs once posted.
    pub hold: Duration,
}

impl Default for ChatConfig {
    fn default() -> ChatConfig {
        ChatConfig {
            mode: ChatMode::Commands,
            sizes: (crate::core::MIN_SIZE..=crate::core::MAX_SIZE).collect(),
            min_time_s: 60,
            max_time_s: 1800,
            max_increment_s: 30,
            levels: (1..=FULL_STRENGTH).collect(),
            per_sender: Duration::from_secs(5),
            max_replies: 10,
            window: Duration::from_secs(60),
            hold: Duration::from_secs(120),
        }
    }
}

/// A player's wish, turned into the seek that serves it.
#[derive(Clone, Debug)]
struct Wish {
    from: String,
    seek: Seek,
    level: u32,
    /// When its seek was first posted (`None`: not yet, a game is still on).
    posted_at: Option<Instant>,
}

/// What the bot is doing, as chat needs to know it.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The operator's seek; `None` when the bot accepts seeks instead.
    pub base: Option<&'a Seek>,
    /// The operator's strength level.
    pub level: u32,
    /// A game is in progress (or awaits its resumption).
    pub in_game: bool,
    /// Now.
    pub now: Instant,
}

/// A reply to send (`Tell FROM TEXT`), and whether the seek to post has changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// At most 256 characters, one line.
    pub reply: String,
    /// Post the seek again: a wish was taken or dropped.
    pub seek_changed: bool,
}

/// The chat state of one run.
#[derive(Clone, Debug)]
pub struct Chat {
    config: ChatConfig,
    limit: RateLimit,
    wish: Option<Wish>,
}

impl Chat {
    /// Chat by these rules.
    pub fn new(config: ChatConfig) -> Chat {
        let limit = RateLimit::new(config.per_sender, config.max_replies, config.window);
        Chat {
            config,
            limit,
            wish: None,
        }
    }

    /// A `Tell` (`private`) or `Shout` from `from` to the bot named `me`: the answer, or `None`
    /// when the line is not for the bot, chat is off, or the rate limit holds it back.
    pub fn message(
        &mut self,
        me: &str,
        from: &str,
        text: &str,
        private: bool,
        context: &Context,
    ) -> Option<Answer> {
        if self.config.mode == ChatMode::Off {
            return None;
        }
        let command = chat_command::addressed(me, from, text, private)?;
        if !self.limit.allow(from, context.now) {
            log::debug!("chat from {from} not answered: rate limit");
            return None;
        }
        let (reply, seek_changed) = self.answer(from, command, context);
        Some(Answer {
            reply: fit(reply),
            seek_changed,
        })
    }

    fn answer(&mut self, from: &str, command: &str, context: &Context) -> (String, bool) {
        let Some(base) = context.base else {
            return (
                "I am a Menhir bot. I accept seeks here rather than post them: post one and I \
                 may take it."
                    .into(),
                false,
            );
        };
        if self.config.mode == ChatMode::Help {
            return (
                format!(
                    "I am a Menhir bot. I seek {}. Accept my seek to play.",
                    describe(base, context.level, None)
                ),
                false,
            );
        }
        let command = match chat_command::parse(command) {
            Ok(command) => command,
            Err(why) => return (format!("Refused: {why}."), false),
        };
        match command {
            ChatCommand::Help => (self.help(), false),
            ChatCommand::Show => {
                let (next, level) = self.current(from, base, context.level);
                (
                    format!("Next game: {}.", describe(&next, level, None)),
                    false,
                )
            }
            ChatCommand::Reset => {
                let mine = self
                    .wish
                    .as_ref()
                    .is_some_and(|w| w.from.eq_ignore_ascii_case(from));
                if mine {
                    self.wish = None;
                }
                (
                    format!(
                        "OK: back to my own seek, {}.",
                        describe(base, context.level, None)
                    ),
                    mine,
                )
            }
            ChatCommand::Set(settings) => match self.take(from, &settings, base, context) {
                Ok(reply) => (reply, true),
                Err(why) => (format!("Refused: {why}."), false),
            },
        }
    }

    fn help(&self) -> String {
        let levels = if self.config.levels.is_empty() {
            String::new()
        } else {
            format!(
                ", level {} ({FULL_STRENGTH} = full)",
                joined(&self.config.levels, "|")
            )
        };
        format!(
            "I am a Menhir bot. Tell me the next game: size {}, clock M+S ({} to {}, +0 to {} \
             s), color white|black|any (yours){levels}. E.g. 'size 5 clock 10+5 color white'. \
             Also: show, reset.",
            joined(&self.config.sizes, "|"),
            span(self.config.min_time_s),
            span(self.config.max_time_s),
            self.config.max_increment_s
        )
    }

    /// The seek and level the next game would have for `from`.
    fn current(&self, from: &str, base: &Seek, level: u32) -> (Seek, u32) {
        match &self.wish {
            Some(w) if w.from.eq_ignore_ascii_case(from) => (w.seek.clone(), w.level),
            _ => (base.clone(), level),
        }
    }

    /// Checks a wish against the limits and makes it the next seek.
    fn take(
        &mut self,
        from: &str,
        settings: &Settings,
        base: &Seek,
        context: &Context,
    ) -> Result<String, String> {
        if !base.opponent.is_empty() && !base.opponent.eq_ignore_ascii_case(from) {
            return Err(format!("I play only {} here", base.opponent));
        }
        if let Some(w) = &self.wish {
            let open = w
                .posted_at
                .is_none_or(|at| context.now.saturating_duration_since(at) < self.config.hold);
            if !w.from.eq_ignore_ascii_case(from) && open {
                return Err(format!(
                    "my next game is promised to {}; ask again in a few minutes",
                    w.from
                ));
            }
        }
        let (mut seek, mut level) = self.current(from, base, context.level);
        if let Some(wanted) = settings.level {
            if self.config.levels.is_empty() {
                return Err("levels are not offered here".into());
            }
            if !self.config.levels.contains(&wanted) {
                return Err(format!(
                    "level {wanted} is not offered (levels: {})",
                    joined(&self.config.levels, ", ")
                ));
            }
            level = wanted;
        }
        if let Some(size) = settings.size {
            if !self.config.sizes.contains(&size) {
                return Err(format!(
                    "size {size} is not offered (sizes: {})",
                    joined(&self.config.sizes, ", ")
                ));
            }
            let (stones, caps) = starting_reserves(size);
            seek.size = size;
            seek.pieces = u32::from(stones);
            seek.capstones = u32::from(caps);
        }
        if let Some(time) = settings.time_s {
            if !(self.config.min_time_s..=self.config.max_time_s).contains(&time) {
                return Err(format!(
                    "{} is outside {} to {}",
                    span(time),
                    span(self.config.min_time_s),
                    span(self.config.max_time_s)
                ));
            }
            seek.time_s = time;
        }
        if let Some(increment) = settings.increment_s {
            if increment > self.config.max_increment_s {
                return Err(format!(
                    "increment {increment} s is over {} s",
                    self.config.max_increment_s
                ));
            }
            seek.increment_s = increment;
        }
        if let Some(theirs) = settings.their_color {
            seek.color = match theirs {
                SeekColor::White => SeekColor::Black,
                SeekColor::Black => SeekColor::White,
                SeekColor::Any => SeekColor::Any,
            };
        }
        seek.opponent = from.to_string();
        let when = if context.in_game {
            "after this game"
        } else {
            "now"
        };
        let reply = format!(
            "OK: {}. My seek is for you alone, posted {when} and open for {} s.",
            describe(&seek, level, Some(from)),
            self.config.hold.as_secs()
        );
        self.wish = Some(Wish {
            from: from.to_string(),
            seek,
            level,
            posted_at: None,
        });
        Ok(reply)
    }

    /// The seek to post now: a player's wish if one stands, else the operator's.
    pub fn seek(&mut self, base: &Seek, now: Instant) -> Seek {
        match &mut self.wish {
            Some(w) => {
                w.posted_at.get_or_insert(now);
                w.seek.clone()
            }
            None => base.clone(),
        }
    }

    /// Whether a wish's seek was open its whole hold without a game: then it is dropped and
    /// the operator's seek should be posted again.
    pub fn expired(&mut self, now: Instant) -> bool {
        let hold = self.config.hold;
        let over = self.wish.as_ref().is_some_and(|w| {
            w.posted_at
                .is_some_and(|at| now.saturating_duration_since(at) >= hold)
        });
        if over {
            if let Some(w) = self.wish.take() {
                log::info!("chat: {}'s seek was not taken: back to our own", w.from);
            }
        }
        over
    }

    /// A game started against `opponent`: a wish it fulfils is done, and its level is this
    /// game's (`Some`); any other wish waits for the end of this game and is held open afresh
    /// then (`None`: the operator's level).
    pub fn game_started(&mut self, opponent: &str) -> Option<u32> {
        let fulfilled = self
            .wish
            .as_ref()
            .is_some_and(|w| w.from.eq_ignore_ascii_case(opponent));
        if fulfilled {
            return self.wish.take().map(|w| w.level);
        }
        if let Some(w) = &mut self.wish {
            w.posted_at = None;
        }
        None
    }
}

/// `600` → `10 min`, `90` → `90 s`.
fn span(seconds: u32) -> String {
    if seconds.is_multiple_of(60) {
        format!("{} min", seconds / 60)
    } else {
        format!("{seconds} s")
    }
}

/// `[4, 5]` → `4|5` (with `separator` `|`).
fn joined<T: ToString>(items: &[T], separator: &str) -> String {
    let texts: Vec<String> = items.iter().map(T::to_string).collect();
    texts.join(separator)
}

/// A seek in a player's words: `5x5, 10 min +5 s, komi 2, you play White, level 10 (full)`.
fn describe(seek: &Seek, level: u32, for_whom: Option<&str>) -> String {
    let you = match seek.color {
        SeekColor::White => "you play Black",
        SeekColor::Black => "you play White",
        SeekColor::Any => "either colour",
    };
    let who = match for_whom {
        Some(name) => format!(" ({name})"),
        None => String::new(),
    };
    let full = if level >= FULL_STRENGTH {
        " (full)"
    } else {
        ""
    };
    format!(
        "{}x{}, {} +{} s, komi {}, {you}, level {level}{full}{who}",
        seek.size,
        seek.size,
        span(seek.time_s),
        seek.increment_s,
        komi_text(seek.half_komi)
    )
}

/// One line of at most `MAX_REPLY` characters.
fn fit(reply: String) -> String {
    let line: String = reply.chars().filter(|c| !c.is_control()).collect();
    match line.char_indices().nth(MAX_REPLY) {
        Some((cut, _)) => line[..cut].to_string(),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Seek {
        Seek {
            size: 6,
            time_s: 600,
            increment_s: 10,
            color: SeekColor::Any,
            half_komi: 4,
            pieces: 30,
            capstones: 1,
            unrated: true,
            tournament: false,
            opponent: String::new(),
        }
    }

    fn limited() -> Chat {
        Chat::new(ChatConfig {
            sizes: vec![4, 5, 6],
            min_time_s: 60,
            max_time_s: 900,
            max_increment_s: 20,
            per_sender: Duration::ZERO,
            ..ChatConfig::default()
        })
    }

    fn say(chat: &mut Chat, from: &str, text: &str, now: Instant, in_game: bool) -> Answer {
        let base = base();
        let context = Context {
            base: Some(&base),
            level: FULL_STRENGTH,
            in_game,
            now,
        };
        chat.message("Bot", from, text, true, &context).unwrap()
    }

    #[test]
    fn a_wish_within_the_limits_becomes_a_seek_for_that_player() {
        let mut chat = limited();
        let now = Instant::now();
        let answer = say(
            &mut chat,
            "alice",
            "size 5 clock 10+5 color white",
            now,
            false,
        );
        assert!(answer
            .reply
            .starts_with("OK: 5x5, 10 min +5 s, komi 2, you play White"));
        assert!(answer.seek_changed);
        let seek = chat.seek(&base(), now);
        assert_eq!(seek.command(), "Seek 5 600 5 B 4 21 1 1 0 alice");
        // Someone else must wait while it is held...
        let answer = say(&mut chat, "bobby", "size 4", now, false);
        assert!(answer.reply.contains("promised to alice"), "{answer:?}");
        assert!(!answer.seek_changed);
        // ...until the hold runs out; then the operator's seek is back.
        assert!(!chat.expired(now + Duration::from_secs(119)));
        assert!(chat.expired(now + Duration::from_secs(120)));
        assert_eq!(chat.seek(&base(), now), base());
    }

    #[test]
    fn values_outside_the_limits_are_refused_with_what_is_allowed() {
        let mut chat = limited();
        let now = Instant::now();
        for (text, says) in [
            ("size 8", "sizes: 4, 5, 6"),
            ("clock 30+0", "30 min is outside 1 min to 15 min"),
            ("clock 0+5", "0 min is outside"),
            ("clock 5+25", "increment 25 s is over 20 s"),
            ("size banana", "not a number"),
            ("dance", "not a command"),
        ] {
            let answer = say(&mut chat, "alice", text, now, false);
            assert!(answer.reply.starts_with("Refused: "), "{text}: {answer:?}");
            assert!(answer.reply.contains(says), "{text}: {answer:?}");
            assert!(!answer.seek_changed);
        }
        assert_eq!(chat.seek(&base(), now), base());
    }

    #[test]
    fn a_wish_during_a_game_waits_for_its_end_and_is_done_when_played() {
        let mut chat = limited();
        let now = Instant::now();
        let answer = say(&mut chat, "alice", "black", now, true);
        assert!(answer.reply.contains("after this game"), "{answer:?}");
        // Not posted yet: it does not expire however long the game takes.
        assert!(!chat.expired(now + Duration::from_secs(3600)));
        let seek = chat.seek(&base(), now + Duration::from_secs(3600));
        assert_eq!(seek.color, SeekColor::White);
        // Another player's game leaves the wish waiting, at the operator's level.
        assert_eq!(chat.game_started("bobby"), None);
        assert_eq!(chat.game_started("ALICE"), Some(FULL_STRENGTH));
        assert_eq!(chat.seek(&base(), now), base());
    }

    #[test]
    fn a_level_is_taken_within_the_offered_ones_and_is_the_wishers_game_only() {
        let mut chat = Chat::new(ChatConfig {
            levels: vec![1, 2, 3],
            per_sender: Duration::ZERO,
            ..ChatConfig::default()
        });
        let now = Instant::now();
        let answer = say(&mut chat, "alice", "level 5", now, false);
        assert!(
            answer
                .reply
                .contains("level 5 is not offered (levels: 1, 2, 3)"),
            "{answer:?}"
        );
        let answer = say(&mut chat, "alice", "level 2 size 5", now, false);
        assert!(
            answer
                .reply
                .starts_with("OK: 5x5, 10 min +10 s, komi 2, either colour, level 2 (alice)"),
            "{answer:?}"
        );
        let show = say(&mut chat, "alice", "show", now, false);
        assert!(show.reply.contains("level 2"), "{show:?}");
        assert_eq!(chat.seek(&base(), now).opponent, "alice");
        assert_eq!(chat.game_started("alice"), Some(2));
        let help = say(&mut chat, "bobby", "help", now, false);
        assert!(help.reply.contains("level 1|2|3 (10 = full)"), "{help:?}");
        // A TEI engine of the operator's: no levels at all.
        let mut chat = Chat::new(ChatConfig {
            levels: Vec::new(),
            ..ChatConfig::default()
        });
        let answer = say(&mut chat, "alice", "level 2", now, false);
        assert!(
            answer.reply.contains("levels are not offered"),
            "{answer:?}"
        );
        let help = say(&mut chat, "bobby", "help", now, false);
        assert!(!help.reply.contains("level"), "{help:?}");
    }

    #[test]
    fn help_show_reset_and_the_other_modes() {
        let mut chat = limited();
        let now = Instant::now();
        let help = say(&mut chat, "alice", "help", now, false);
        assert!(help.reply.contains("size 4|5|6"), "{help:?}");
        assert!(help.reply.len() <= MAX_REPLY);
        say(&mut chat, "alice", "4x4", now, false);
        let show = say(&mut chat, "alice", "show", now, false);
        assert!(show.reply.starts_with("Next game: 4x4"), "{show:?}");
        let show = say(&mut chat, "bobby", "show", now, false);
        assert!(show.reply.starts_with("Next game: 6x6"), "{show:?}");
        let reset = say(&mut chat, "alice", "reset", now, false);
        assert!(reset.seek_changed);
        assert_eq!(chat.seek(&base(), now), base());

        let base = base();
        let context = Context {
            base: Some(&base),
            level: FULL_STRENGTH,
            in_game: false,
            now,
        };
        let mut off = Chat::new(ChatConfig {
            mode: ChatMode::Off,
            ..ChatConfig::default()
        });
        assert_eq!(off.message("Bot", "alice", "help", true, &context), None);
        let mut help_only = Chat::new(ChatConfig {
            mode: ChatMode::Help,
            ..ChatConfig::default()
        });
        let answer = help_only
            .message("Bot", "alice", "size 4", true, &context)
            .unwrap();
        assert!(answer.reply.contains("I seek 6x6"), "{answer:?}");
        assert_eq!(help_only.seek(&base, now), base);
        let accepting = Context {
            base: None,
            ..context
        };
        let answer = limited()
            .message("Bot", "alice", "size 4", true, &accepting)
            .unwrap();
        assert!(answer.reply.contains("accept seeks"), "{answer:?}");
    }

    #[test]
    fn an_operator_opponent_keeps_the_bot_for_that_player() {
        let mut chat = limited();
        let mut only_carol = base();
        only_carol.opponent = "carol".into();
        let context = Context {
            base: Some(&only_carol),
            level: FULL_STRENGTH,
            in_game: false,
            now: Instant::now(),
        };
        let answer = chat
            .message("Bot", "alice", "size 5", true, &context)
            .unwrap();
        assert!(answer.reply.contains("only carol"), "{answer:?}");
        let answer = chat
            .message("Bot", "Carol", "size 5", true, &context)
            .unwrap();
        assert!(answer.reply.starts_with("OK"), "{answer:?}");
    }

    #[test]
    fn replies_are_one_line_within_the_servers_limit() {
        let long = format!("{}\n{}", "é".repeat(300), "x");
        let fitted = fit(long);
        assert_eq!(fitted.chars().count(), MAX_REPLY);
        assert!(!fitted.contains('\n'));
    }
}
