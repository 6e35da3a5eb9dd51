// The scored corpora (issue 10 item 7): real, resolved public OOM reports (<id>.log as pasted in
// the thread, personal details replaced; index.jsonl: id, source URL, label = the cause the thread
// settled on, framework, requested_printed = the size as the message prints it, resolution).
//
// The parts:
// - tuned: tests/data/oom-corpus/ (63 reports). Until 2026-11-30 it was split by a fixed seed
//   (FNV-1a-64("oomkit-corpus-2026-11-30:" + id) % 3 == 0 held apart, 28 reports); that held-apart
//   third was scored once and then looked at, so it is no longer held apart: all 63 are the part
//   the diagnoser may be tuned on.
// - held2: tests/data/oom-corpus-held2/ (34 reports gathered after that, labelled from their
//   threads before any scoring). Scored once after the second pass's tuning and then looked at:
//   since the third pass it is tuned on too.
// - held3: tests/data/oom-corpus-held3/ (33 reports gathered and committed after held2 had been
//   looked at, labelled from their threads before the diagnoser was run on them). Scored once,
//   after the third pass's tuning, then looked at: since the fourth pass it is tuned on too (the
//   count of looks is in tests/data/oom-corpus/README.md).
//
// - held4: tests/data/oom-corpus-held4/ (48 reports gathered on 2026-12-01 while held3 was being
//   tuned on, committed on their own before any of that tuning was merged, labelled from their
//   threads before the diagnoser was run on them). The held-apart part of the fourth pass:
//   scored only when asked for (OOMKIT_CORPUS_PART=held4), never in `all`, so that ctest stays a
//   guard on the tuned parts; its one score is in tests/data/oom-corpus/README.md.
// - held5: tests/data/oom-corpus-held5/ (40 reports gathered on 2026-12-01 after held4 had been
//   scored and looked at, by a session that neither ran nor read the diagnoser; committed on their
//   own, "gathered, not yet run"). Scored only when asked for (OOMKIT_CORPUS_PART=held5).
// - held6: tests/data/oom-corpus-held6/ (40 reports gathered on 2026-12-01 by a separate session
//   that neither ran nor read the diagnoser, while held5's misses were worked on, and not looked
//   at by that work). Scored only when asked for (OOMKIT_CORPUS_PART=held6).
// - held7: tests/data/oom-corpus-held7/ (40 reports gathered on 2026-12-01 by a separate session
//   that neither ran nor read the diagnoser, after held6 had been scored). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held7).
// - held8: tests/data/oom-corpus-held8/ (27 reports gathered on 2026-12-01 by a separate session
//   that neither ran nor read the diagnoser, after held7 had been scored; committed on their own,
//   "gathered, not yet run"). Scored only when asked for (OOMKIT_CORPUS_PART=held8).
// - held9: tests/data/oom-corpus-held9/ (33 reports gathered on 2026-12-01 by a separate session
//   that neither ran nor read the diagnoser, after held8 had been scored; committed on their own
//   before the word prior was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held9).
// - held10: tests/data/oom-corpus-held10/ (35 reports gathered on 2026-12-02 by a separate session
//   that neither ran nor read the diagnoser, after held9 had been scored and looked at; committed on
//   their own, "gathered, not yet run"). Scored only when asked for (OOMKIT_CORPUS_PART=held10).
//   held9 and held10 joined the word prior's training parts in the eighth pass, after both had
//   been scored and looked at.
// - held11: tests/data/oom-corpus-held11/ (38 reports gathered on 2026-12-02 by a separate session
//   that neither ran nor read the diagnoser, after held10 had been scored and looked at; committed
//   on their own, "gathered, not yet run", before the eighth pass was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held11).
// - held12: tests/data/oom-corpus-held12/ (32 reports gathered on 2026-12-02 by a separate session
//   that neither ran nor read the diagnoser, after held11 had been scored and looked at; committed
//   on their own before the ninth pass was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held12). held11 and held12 joined the word prior's training parts in the
//   tenth pass, after both had been scored and looked at.
// - held13: tests/data/oom-corpus-held13/ (35 reports gathered on 2026-12-02 by a separate session
//   that neither ran nor read the diagnoser, after held12 had been scored and looked at; committed
//   on their own before the tenth pass was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held13). Joined the word prior's training parts in the eleventh pass.
// - held14: tests/data/oom-corpus-held14/ (30 reports gathered on 2026-12-02 by a separate session
//   that neither ran nor read the diagnoser, after held13 had been scored and looked at; committed
//   on their own before the eleventh pass was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held14). Joined the word prior's training parts after its score.
// - held15: tests/data/oom-corpus-held15/ (30 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, after held14 had been scored and looked at; committed
//   on their own after the twelfth pass was frozen and before it was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held15). Joined the word prior's training parts after its score.
// - held16: tests/data/oom-corpus-held16/ (31 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, while held15 was being scored; committed on their own
//   after held15's after-score changes were committed and before they were scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held16). Joined the word prior's training parts after its score.
// - held17: tests/data/oom-corpus-held17/ (31 reports gathered on 2026-12-03 by two helper sessions
//   that neither ran nor read the diagnoser, after held16 had been scored and looked at; committed
//   on their own after the thirteenth pass was frozen and before it was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held17). Joined the word prior's training parts after its score.
// - held18: tests/data/oom-corpus-held18/ (32 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, while held17 was being scored; committed on their own
//   after held17's after-score changes and their review mends were committed and before they were
//   scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held18). Joined the word
//   prior's training parts after its score.
// - held19: tests/data/oom-corpus-held19/ (30 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, after held18 had been scored and looked at; committed
//   on their own after the consolidation commit and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held19). Joined the word prior's training parts after
//   its score.
// - held20: tests/data/oom-corpus-held20/ (26 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, while held19 was being scored; committed on their own
//   after the review mends of held19's after-score changes and before anything was scored on
//   them). Scored only when asked for (OOMKIT_CORPUS_PART=held20). Joined the word prior's training
//   parts after its score.
// - held21: tests/data/oom-corpus-held21/ (29 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, while the session's changes before it were made;
//   committed on their own after those changes and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held21). Joined the word prior's training parts after
//   its score.
// - held22: tests/data/oom-corpus-held22/ (24 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, while the session's change before it was made;
//   committed on their own after that change and before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held22). Joined the word prior's training parts after its
//   score.
// - held23: tests/data/oom-corpus-held23/ (15 reports gathered on 2026-12-03 by a separate session
//   that neither ran nor read the diagnoser, after held22's mends had landed; committed on their
//   own before anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held23).
//   Joined the word prior's training parts after its score.
// - held24: tests/data/oom-corpus-held24/ (28 reports gathered on 2026-12-03 in two shares by two
//   sessions that neither ran nor read the diagnoser, while the session's changes before it were
//   made; committed on their own after those changes and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held24). Joined the word prior's training parts
//   after its score.
// - held25: tests/data/oom-corpus-held25/ (24 reports gathered on 2026-12-03 in two shares by two
//   sessions that neither ran nor read the diagnoser, on split topics at the same time; committed
//   on their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held25). Joined the word prior's training parts
//   after its score.
// - held26: tests/data/oom-corpus-held26/ (30 reports gathered on 2026-12-03 in four shares by four
//   sessions that neither ran nor read the diagnoser, two at a time on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held26). Joined the word prior's training parts
//   after its score.
// - held27: tests/data/oom-corpus-held27/ (26 reports gathered on 2026-12-04 in four shares by four
//   sessions that neither ran nor read the diagnoser, all four at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held27). Joined the word prior's training parts
//   after its score.
// - held28: tests/data/oom-corpus-held28/ (23 reports gathered on 2026-12-04 in four shares by four
//   sessions that neither ran nor read the diagnoser, all four at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held28). Not joined to the word prior's training
//   parts: joined, it cost 4 top-3 places (0 top-1) on the 27 other parts, leave-one-part-out.
// - held29: tests/data/oom-corpus-held29/ (26 reports gathered on 2026-12-04 in four shares by four
//   sessions that neither ran nor read the diagnoser, all four at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held29). Not joined to the word prior's training
//   parts: joined, it cost 4 top-1 and 5 top-3 places on the 28 other parts, leave-one-part-out.
// - held30: tests/data/oom-corpus-held30/ (25 reports gathered on 2026-12-04 in four shares by four
//   sessions that neither ran nor read the diagnoser, all four at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held30). Not joined to the word prior's training
//   parts: joined, it cost 2 top-1 and 3 top-3 places on the 29 other parts, leave-one-part-out.
// - held31: tests/data/oom-corpus-held31/ (27 reports gathered on 2026-12-04 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held31). Not joined to the word prior's training
//   parts: joined, it cost 2 top-1 and 3 top-3 places on the 30 other parts, leave-one-part-out.
// - held32: tests/data/oom-corpus-held32/ (24 reports gathered on 2026-12-04 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held32). Not joined to the word prior's training
//   parts: joined, it cost 2 top-3 places (0 top-1) on the 31 other parts, leave-one-part-out.
// - held33: tests/data/oom-corpus-held33/ (21 reports gathered on 2026-12-04 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics, one
//   near-duplicate of an earlier part's case dropped; committed on their own after the session's
//   changes before it and before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held33). Not joined to the word prior's training
//   parts: joined, it cost 1 top-1 place (0 top-3) on the 32 other parts, leave-one-part-out.
// - held34: tests/data/oom-corpus-held34/ (25 reports gathered on 2026-12-04 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's change before it and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held34). Not joined to the word prior's training
//   parts: joined, it cost 4 top-1 places (0 top-3) on the 33 other parts, leave-one-part-out.
// - held35: tests/data/oom-corpus-held35/ (30 reports gathered on 2026-12-04 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held35). Not joined to the word prior's training
//   parts: joined, it cost 1 top-1 and 5 top-3 places on the 34 other parts, leave-one-part-out.
// - held36: tests/data/oom-corpus-held36/ (26 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's changes before it and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held36). Not joined to the word prior's training
//   parts: joined, it cost 2 top-1 and 4 top-3 places on the 35 other parts, leave-one-part-out.
// - held37: tests/data/oom-corpus-held37/ (27 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's change before it and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held37). Not joined to the word prior's training
//   parts: joined, it cost 3 top-1 and 1 top-3 places on the 36 other parts, leave-one-part-out.
// - held38: tests/data/oom-corpus-held38/ (22 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics, one thread
//   dropped as an earlier part's fix again; committed on their own after the session's changes
//   before it and before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held38). Not joined to the word prior's training parts: joined, it cost 4
//   top-1 and 1 top-3 places on the 37 other parts, leave-one-part-out.
// - held39: tests/data/oom-corpus-held39/ (20 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's change before it and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held39). Not joined to the word prior's training
//   parts: joined, it cost 4 top-1 and 0 top-3 places on the 39 other parts, leave-one-part-out.
// - held40: tests/data/oom-corpus-held40/ (27 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics, one thread
//   dropped as an earlier part's fix again; committed on their own after the session's changes
//   before it and before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held40). Not joined to the word prior's training parts: joined, it cost 5
//   top-1 and 2 top-3 places on the 40 other parts, leave-one-part-out.
// - held41: tests/data/oom-corpus-held41/ (26 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's change before it and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held41). Not joined to the word prior's training
//   parts: joined, it cost 6 top-1 and 2 top-3 places on the 41 other parts, leave-one-part-out.
// - held42: tests/data/oom-corpus-held42/ (22 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's change before it and before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held42). Not joined to the word prior's training
//   parts: joined, it cost 2 top-1 and 3 top-3 places on the 42 other parts, leave-one-part-out.
// - held43: tests/data/oom-corpus-held43/ (23 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after held42's mends and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held43). Not joined to the word prior's training parts: joined, it cost
//   2 top-1 places on the 43 other parts, leave-one-part-out.
// - held44: tests/data/oom-corpus-held44/ (22 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after held43's mends and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held44). Not joined to the word prior's training parts: joined, it gained
//   the 44 other parts 1 top-1 and 4 top-3 places leave-one-part-out, but the built-in prior then
//   cost the tuned part one top-1 place (85.7% -> 84.1%).
// - held45: tests/data/oom-corpus-held45/ (26 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after the session's carried mends and before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held45). Not joined to the word prior's training parts:
//   joined, it cost 4 top-1 and 5 top-3 places on the 45 other parts, leave-one-part-out.
// - held46: tests/data/oom-corpus-held46/ (20 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after held45's mends and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held46). Not joined to the word prior's training parts: joined, it cost
//   8 top-1 places (and gained 2 top-3) on the 46 other parts, leave-one-part-out.
// - held47: tests/data/oom-corpus-held47/ (23 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after held46's mends and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held47). Not joined to the word prior's training parts: joined, it cost
//   3 top-1 and 4 top-3 places on the 47 other parts, leave-one-part-out.
// - held48: tests/data/oom-corpus-held48/ (26 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after session 38's work and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held48). Joined the word prior's training parts after its score and its
//   mends: joined, it gained the 44 parts outside the prior's tuned ones 6 top-1 and 1 top-3 places,
//   leave-one-part-out.
// - held49: tests/data/oom-corpus-held49/ (23 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after held48's mends and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held49). Not joined to the word prior's training parts: joined, it cost
//   8 top-1 places (top-3 unchanged) on the 46 parts outside the prior's tuned ones, leave-one-part-out.
// - held50: tests/data/oom-corpus-held50/ (17 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after held49's mends and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held50). Not joined to the word prior's training parts: joined, it cost
//   2 top-1 and 2 top-3 places on the 47 parts outside the prior's tuned ones, leave-one-part-out.
// - held51: tests/data/oom-corpus-held51/ (26 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, all three at once on split topics; committed on
//   their own after held50's round and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held51). Not joined to the word prior's training parts (tried in the
//   next session: it cost the other parts 4 top-1 places).
// - held52: tests/data/oom-corpus-held52/ (25 reports gathered on 2026-12-05 in three shares by three
//   sessions that neither ran nor read the diagnoser, on split topics; committed on their own at the
//   end of session 39's work, before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held52). Not joined to the word prior's training parts (joined, it cost the
//   other parts 8 top-1 places).
// - held53: tests/data/oom-corpus-held53/ (26 reports gathered the same way later that day, after
//   held52's round and review52's mends; committed on their own before anything was scored on them).
//   Scored only when asked for (OOMKIT_CORPUS_PART=held53). Not joined to the word prior's training
//   parts (not tried).
// - held54: tests/data/oom-corpus-held54/ (24 reports gathered the same way in the next session, at
//   its start; committed on their own before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held54).
// - held55: tests/data/oom-corpus-held55/ (14 reports gathered the same way later in that session,
//   after held54's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held55).
// - held56: tests/data/oom-corpus-held56/ (17 reports gathered the same way in the next session, at
//   its start; committed on their own before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held56).
// - held57: tests/data/oom-corpus-held57/ (24 reports gathered the same way later in that session,
//   after held56's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held57).
// - held58: tests/data/oom-corpus-held58/ (27 reports gathered the same way at that session's end,
//   after held57's round; committed on their own before anything was scored on them, then scored
//   once with the session's final code and not mended). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held58).
// - held59: tests/data/oom-corpus-held59/ (25 reports gathered the same way in the next session, at
//   its start; committed on their own before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held59).
// - held60: tests/data/oom-corpus-held60/ (29 reports gathered the same way in the next session, at
//   its start; committed on their own before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held60).
// - held61: tests/data/oom-corpus-held61/ (30 reports gathered the same way later in that session,
//   after held60's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held61).
// - held62: tests/data/oom-corpus-held62/ (25 reports gathered the same way in the next session, at
//   its start; committed on their own before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held62).
// - held63: tests/data/oom-corpus-held63/ (23 reports gathered the same way later in that session,
//   after held62's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held63).
// - held64: tests/data/oom-corpus-held64/ (26 reports gathered the same way later in that session,
//   after held63's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held64).
// - held65: tests/data/oom-corpus-held65/ (26 reports gathered the same way in the next session, at
//   its start; committed on their own before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held65).
// - held66: tests/data/oom-corpus-held66/ (26 reports gathered the same way later in that session,
//   after held65's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held66).
// - held67: tests/data/oom-corpus-held67/ (26 reports gathered the same way in the next session,
//   after held66's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held67).
// - held68: tests/data/oom-corpus-held68/ (25 reports gathered the same way later in that session,
//   after held67's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held68).
// - held69: tests/data/oom-corpus-held69/ (25 reports gathered the same way later in that session,
//   after held68's round; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held69).
// - held70: tests/data/oom-corpus-held70/ (25 reports gathered the same way in the next session, at
//   its start; committed on their own before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held70).
// - held71: tests/data/oom-corpus-held71/ (20 reports gathered the same way later in that session,
//   while held70's round was read; committed on their own, after it landed, before anything was
//   scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held71).
// - held72: tests/data/oom-corpus-held72/ (26 reports gathered the same way later in that session,
//   while held71's round was read; committed on their own, after it was committed, before anything
//   was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held72).
// - held73: tests/data/oom-corpus-held73/ (17 reports gathered the same way after held72's round
//   landed; committed on their own before anything was scored on them; no round followed them that
//   session, one of their kinds was mended the next). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held73).
// - held74: tests/data/oom-corpus-held74/ (40 reports gathered the same way, in six shares, the
//   next session; committed on their own before anything was scored on them). Scored only when
//   asked for (OOMKIT_CORPUS_PART=held74).
// - held75: tests/data/oom-corpus-held75/ (43 reports gathered the same way, in six shares, after
//   held74's round landed; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held75).
// - held76: tests/data/oom-corpus-held76/ (37 reports gathered the same way, in six shares, after
//   held75's round landed; committed on their own before anything was scored on them; no round
//   followed them that session; theirs came the next). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held76).
// - held77: tests/data/oom-corpus-held77/ (47 reports gathered the same way, in six shares, while
//   held76's round was written; committed on their own after it and before anything was scored on
//   them). Scored only when asked for (OOMKIT_CORPUS_PART=held77).
// - held78: tests/data/oom-corpus-held78/ (40 reports gathered the same way, in six shares, after
//   held77's round landed; committed on their own before anything was scored on them). Scored only
//   when asked for (OOMKIT_CORPUS_PART=held78).
// - held79: tests/data/oom-corpus-held79/ (45 reports gathered the same way, in six shares, after
//   held78's round landed; committed on their own before anything was scored on them; no round
//   followed them that session). Scored only when asked for (OOMKIT_CORPUS_PART=held79).
// - held80: tests/data/oom-corpus-held80/ (49 reports gathered the same way, in six shares, after
//   held79 landed; committed on their own before anything was scored on them). Scored only when
//   asked for (OOMKIT_CORPUS_PART=held80).
// - held81: tests/data/oom-corpus-held81/ (36 reports gathered the same way, in six shares, after
//   held80's round was committed; committed on their own before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held81).
// - held82: tests/data/oom-corpus-held82/ (48 reports gathered the same way, in six shares, after
//   held81's round was committed; committed on their own before anything was scored on them). Scored
//   only when asked for (OOMKIT_CORPUS_PART=held82).
// - held83: tests/data/oom-corpus-held83/ (7 reports gathered the same way, in six shares, after
//   held82's round was committed, before the session's search budget ran out; committed on their own
//   before anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held83).
// - held84: tests/data/oom-corpus-held84/ (41 reports gathered the same way, in six shares, after
//   held83's round and the session's last commit (1071928); committed on their own before anything
//   was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held84).
// - held85: tests/data/oom-corpus-held85/ (36 reports gathered the same way, in six shares, after
//   held84's round was committed (82828ea); committed on their own before anything was scored on
//   them). Scored only when asked for (OOMKIT_CORPUS_PART=held85).
// - held86: tests/data/oom-corpus-held86/ (47 reports gathered the same way, in six shares, after
//   the next session's first mend was built (64ef513); committed on their own before anything was
//   scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held86).
// - held87: tests/data/oom-corpus-held87/ (28 reports gathered the same way, in six shares, after
//   held86's round was committed (77acfdd); one dropped on the gathering rules before scoring;
//   committed on their own before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held87).
// - held88: tests/data/oom-corpus-held88/ (51 reports gathered the same way, in six shares, at the
//   start of the next session, before anything of it was committed; committed on their own before
//   anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held88).
// - held89: tests/data/oom-corpus-held89/ (38 reports gathered the same way, in six shares, after
//   held88's round was committed (35ae7d4); committed on their own before anything was scored on
//   them). Scored only when asked for (OOMKIT_CORPUS_PART=held89).
// - held90: tests/data/oom-corpus-held90/ (15 reports gathered the same way, in six shares, after
//   held89's round and the whole-change read were landed (a313d1b), few because the session's search
//   budget ran out; committed on their own before anything was scored on them; its round came the next
//   session, af63f4a). Scored only when asked for (OOMKIT_CORPUS_PART=held90).
// - held91: tests/data/oom-corpus-held91/ (53 reports gathered the same way, in twelve shares in two
//   waves, during held90's round; committed on their own after it and before anything was scored on
//   them). Scored only when asked for (OOMKIT_CORPUS_PART=held91).
// - held92: tests/data/oom-corpus-held92/ (55 reports gathered the same way, in twelve shares in two
//   waves, at the start of the next session while one small mend for held91 was made (aeac021);
//   committed on their own after it and before anything was scored on them). Scored only when asked
//   for (OOMKIT_CORPUS_PART=held92).
// - held93: tests/data/oom-corpus-held93/ (77 reports gathered the same way, in seventeen shares, at
//   the start of the next session while nothing in the diagnoser changed; committed on their own
//   before anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held93).
// - held94: tests/data/oom-corpus-held94/ (112 reports gathered the same way, in twenty-five shares on
//   niche topics, at the start of the next session while nothing in the diagnoser changed; committed
//   on their own before anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held94).
// - held95: tests/data/oom-corpus-held95/ (126 reports gathered the same way, in thirty-five shares on
//   niche topics new to the corpus, at the start of the next session; committed on their own before
//   anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held95).
// - held96: tests/data/oom-corpus-held96/ (145 reports gathered the same way, in forty-eight shares on
//   niche topics new to the corpus, at the start of the next session; committed on their own before
//   anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held96).
// - held97: tests/data/oom-corpus-held97/ (150 reports gathered the same way, in forty-nine shares on
//   niche topics new to the corpus, at the start of the next session; committed on their own before
//   anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held97).
// - held98: tests/data/oom-corpus-held98/ (218 reports gathered the same way, in fifty-two shares on
//   niche topics, single repositories and research code of 2016 .. 2020, at the start of the next
//   session; committed on their own before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held98).
// - held99: tests/data/oom-corpus-held99/ (209 reports gathered the same way, in fifty-one shares on
//   research code of 2016 .. 2022 in fields the corpus had touched little, at the start of the next
//   session; committed on their own before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held99).
// - held100: tests/data/oom-corpus-held100/ (164 reports gathered the same way, in thirty-one shares on
//   research code of 2016 .. 2023 in vision, 3D, science and classic NLP, at the start of the next
//   session; committed on their own before anything was scored on them). Scored only when asked for
//   (OOMKIT_CORPUS_PART=held100).
// - held101: tests/data/oom-corpus-held101/ (37 reports gathered the same way, in twenty shares on the
//   field's big repositories and on research fields the corpus had named once or twice; committed on
//   their own before anything was scored on them). Scored only when asked for (OOMKIT_CORPUS_PART=held101).
//
// Scores per part: parse (a report found), requested bytes (for entries whose message states a
// size: a report's requested_bytes within half the last printed digit of the printed size; TH's
// whole-GB truncation within 1 GiB; TensorFlow's shape x dtype exactly, the dtype from the
// message when the index gives the shape alone; an exact count printed in parentheses,
// "190.31M (199557120 bytes)", exactly, as is one printed before them, "57933824 bytes
// (55.250MiB)"), top-1 (the first-ranked
// category of the primary report equals the label, ambiguous or not) and top-3. The primary
// report is the one whose request matches requested_printed, else the last one in the log (the
// failure that ended the run). Thresholds: parse 100%, requested 100%, top-1 >= 80%, top-3 >= 95%.
//
// OOMKIT_CORPUS_PART=tuned|held2|held3|held4|...|tuning|all (every tests/data/oom-corpus-heldN/ is a part)
// (default all = tuned, held2 and held3, the parts the diagnoser may be tuned on; tuning = tuned and
// held2) scores those parts only; the test fails when a scored part is below a threshold (ctest runs
// it since every part met the bar, see tests/tests.cmake). OOMKIT_CORPUS_CROSS=1 scores each part
// with a word prior trained without it, OOMKIT_CORPUS_NO_PRIOR=1 without any.
// OOMKIT_CORPUS_VERBOSE=1 lists the misses (=2 also their ranking and deciding evidence).
// OOMKIT_CORPUS_DUMP=FILE writes each scored report's label, ranking (cause, score), message
// lines and the word prior's own ranking (cause, cosine; absent where no report is found and
// with OOMKIT_CORPUS_NO_PRIOR) as one JSON line.
// OOMKIT_CORPUS_DESCRIBED=1 ranks a text with no report found as one report (`diagnose --described`);
// parse still counts only the reports found without being told.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "oomkit/diagnose/diagnosis.h"

using namespace oomkit;

namespace {

const std::string kData = std::string(OOMKIT_SOURCE_DIR) + "/tests/data/";

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Whether `bytes` is what `printed` states. Independent of the parser: written from the formats'
// definitions (PyTorch's format_size: binary units, two decimals; XLA's bare K/M/G: binary;
// TH: size / 2^30 truncated, labelled GB; TensorFlow: shape x dtype). `mps`: KB/MB/GB (and R's
// French Ko/Mo/Go) binary, as MPS, PaddlePaddle, R (memory.c divides by 1024) and CatBoost's GPU pool
// (stack_like_memory_pool.h: MB = 1024.0 * 1024.0) print them.
bool matches_printed(const std::string& printed_in, int64_t bytes, bool mps, const std::string& record_dtype) {
  // numpy's _ArrayMemoryError before it printed the array's size: "Unable to allocate array with
  // shape (2602, 7470630) and data type float64": the shape's elements times the dtype's size, as
  // TensorFlow's bracketed form below.
  if (printed_in.rfind("shape (", 0) == 0 && printed_in.find(") and data type ") != std::string::npos) {
    const size_t close = printed_in.find(')');
    return matches_printed("shape[" + printed_in.substr(7, close - 7) + "] and type " +
                               printed_in.substr(printed_in.find(") and data type ") + 16),
                           bytes, mps, record_dtype);
  }
  // "190.31M (199557120 bytes)", "5.66GiB (6075580416B)": the exact count in parentheses decides.
  if (const size_t open = printed_in.find('('); open != std::string::npos && printed_in.rfind("shape[", 0) != 0) {
    const std::string inner = printed_in.substr(open + 1, printed_in.find(')', open) - open - 1);
    size_t k = 0;
    while (k < inner.size() && std::isdigit(static_cast<unsigned char>(inner[k]))) ++k;
    if (k > 0 && (inner.substr(k) == "B" || inner.substr(k) == " bytes" || inner.substr(k) == "bytes")) {
      return std::stoll(inner.substr(0, k)) == bytes;
    }
    // "57933824 bytes (55.250MiB)" (MegEngine's): the exact count before the parentheses decides.
    const std::string before = printed_in.substr(0, open);
    size_t d = 0;
    while (d < before.size() && std::isdigit(static_cast<unsigned char>(before[d]))) ++d;
    if (d > 0 && (before.substr(d) == " bytes " || before.substr(d) == " bytes" || before.substr(d) == "B ")) {
      return std::stoll(before.substr(0, d)) == bytes;
    }
  }
  // ggml's arena as a gatherer copied it, "needed 1638880, available 1638544": the request is the
  // count after "needed" (bytes), not the two run together.
  if (printed_in.rfind("needed ", 0) == 0 && printed_in.find(", available ") != std::string::npos) {
    return matches_printed(printed_in.substr(7, printed_in.find(',') - 7) + " bytes", bytes, mps, record_dtype);
  }
  std::string p;
  for (char c : printed_in) {
    if (c != ' ' && c != ',') p.push_back(c);
  }
  // A hexadecimal byte count ("size = 0x639c00", Sophon's bmlib): exact; one beyond int64 is
  // matched by the flagged INT64_MAX a record keeps for it.
  if ((p.rfind("0x", 0) == 0 || p.rfind("0X", 0) == 0) && p.size() > 2) {
    const std::string hex = p.substr(2);
    if (hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
    const size_t first = std::min(hex.find_first_not_of('0'), hex.size() - 1);
    if (hex.size() - first > 16 || (hex.size() - first == 16 && hex[first] > '7')) {
      return bytes == std::numeric_limits<int64_t>::max();
    }
    return static_cast<int64_t>(std::stoull(hex, nullptr, 16)) == bytes;
  }
  // TensorFlow 0.x's TensorShapeProto, "shape dim { size: 10000 } dim { size: 18 }" (no dtype printed):
  // written as the bracketed form for the branch below.
  if (p.rfind("shapedim{size:", 0) == 0) {
    std::string dims;
    for (size_t at = p.find("size:"); at != std::string::npos; at = p.find("size:", at + 5)) {
      size_t k = at + 5;
      while (k < p.size() && std::isdigit(static_cast<unsigned char>(p[k]))) ++k;
      dims += (dims.empty() ? "" : ",") + p.substr(at + 5, k - at - 5);
    }
    return matches_printed("shape[" + dims + "]", bytes, mps, record_dtype);
  }
  if (p.rfind("shape[", 0) == 0) {
    const size_t close = p.find(']');
    std::string dtype = p.substr(close + 1);
    if (dtype.rfind("andtype", 0) == 0) dtype = dtype.substr(7);
    if (dtype.empty()) dtype = record_dtype;  // the printed shape alone: the message's own dtype
    long double n = 1;
    std::string cur;
    // The dimensions with spaces and commas gone would run together: split the printed text
    // (TensorFlow before 1.1 printed "shape [16384]", later "shape[16384]"; a shape quoted with
    // spaces alone between its dimensions, "shape [1 160 192 224 48]", splits at the spaces).
    const size_t open = printed_in.find('[');
    const std::string inside = printed_in.substr(open + 1, printed_in.find(']') - open - 1);
    const bool commas = inside.find(',') != std::string::npos;
    for (char c : inside + ",") {
      if (c == ',' || (!commas && c == ' ')) {
        if (!cur.empty()) n *= std::stold(cur);
        cur.clear();
      } else if (c != ' ') {
        cur.push_back(c);
      }
    }
    const std::map<std::string, int> size = {{"float", 4}, {"float32", 4}, {"half", 2}, {"float16", 2}, {"bfloat16", 2},
                                             {"double", 8}, {"float64", 8}, {"int32", 4}, {"int64", 8}, {"int8", 1},
                                             {"uint8", 1}, {"bool", 1}, {"int16", 2}, {"uint16", 2}, {"uint32", 4},
                                             {"uint64", 8}, {"complex64", 8}, {"complex128", 16}, {"float128", 16},
                                             // the element size the parser read from BFC's request before
                                             // a message that prints no dtype ("4-byte elements")
                                             {"1-byte", 1}, {"2-byte", 2}, {"4-byte", 4}, {"8-byte", 8}};
    auto it = size.find(dtype);
    return it != size.end() && static_cast<long double>(bytes) == n * it->second;
  }
  size_t i = 0;
  while (i < p.size() && (std::isdigit(static_cast<unsigned char>(p[i])) || p[i] == '.')) ++i;
  if (i == 0) return false;
  const std::string number = p.substr(0, i);
  const std::string unit = p.substr(i);
  const size_t dot = number.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(number.size() - dot - 1);
  std::string u;
  for (char c : unit) u.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  long double mult = 0;
  bool th = false;
  if (u == "bytes" || u == "byte" || u == "b") mult = 1;
  else if (u.empty() && decimals == 0) mult = 1;  // a bare count is bytes (ggml's "allocation of size 118497280")
  else if (u == "kib" || u == "k") mult = 1024.0L;
  else if (u == "mib" || u == "m") mult = 1024.0L * 1024;
  else if (u == "gib" || u == "g") mult = 1024.0L * 1024 * 1024;
  else if (u == "tib" || u == "t") mult = 1024.0L * 1024 * 1024 * 1024;
  else if (u == "pib" || u == "p") mult = 1024.0L * 1024 * 1024 * 1024 * 1024;
  // French octets, as R's fr catalogue prints its binary sizes ("26.8 Go"): binary like R's "Gb".
  else if (u == "ko" && mps) mult = 1024.0L;
  else if (u == "mo" && mps) mult = 1024.0L * 1024;
  else if (u == "go" && mps) mult = 1024.0L * 1024 * 1024;
  else if (u == "kb") mult = mps ? 1024.0L : 1e3L;
  else if (u == "mb") mult = mps ? 1024.0L * 1024 : 1e6L;
  else if (u == "gb") {
    mult = mps ? 1024.0L * 1024 * 1024 : 1e9L;
    th = decimals == 0;  // TH's "40GB" (whole GiB, truncated) or a decimal GB: either is accepted below
  } else if (u == "tb") mult = 1e12L;
  else return false;
  const long double value = std::stold(number) * mult;
  const long double tol = 0.5L * std::pow(10.0L, -decimals) * mult;
  if (std::fabs(static_cast<long double>(bytes) - value) <= tol + 0.5L) return true;
  if (th) {  // TH: size / 2^30 truncated: the true size is in [N, N+1) GiB
    const long double n = std::stold(number) * 1024.0L * 1024 * 1024;
    return static_cast<long double>(bytes) >= n && static_cast<long double>(bytes) < n + 1024.0L * 1024 * 1024;
  }
  return false;
}

struct Score {
  int n = 0, parsed = 0, told = 0, sized = 0, sized_ok = 0, top1 = 0, top3 = 0;
  std::vector<std::string> misses;
};

// Scores one corpus directory into `s`.
void score_dir(const std::string& dir, Score& s, const DiagnoseOptions& options, std::ofstream* dump) {
  std::ifstream index(dir + "index.jsonl");
  ASSERT_TRUE(index) << "missing " << dir << "index.jsonl";
  std::string line;
  while (std::getline(index, line)) {
    if (line.empty()) continue;
    const nlohmann::json e = nlohmann::json::parse(line);
    const std::string id = e["id"];
    ++s.n;
    const std::string log = read(dir + id + ".log");
    const std::vector<Diagnosis> ds = diagnose_log(log, options);
    if (ds.empty()) {
      s.misses.push_back(id + ": no report");
      if (dump) {
        *dump << nlohmann::json({{"dir", dir.substr(kData.size())}, {"id", id}, {"label", e["label"]}}).dump() << "\n";
      }
      continue;
    }
    // A report found only because the scorer said the text is one (OOMKIT_CORPUS_DESCRIBED) is
    // ranked, but not parsed.
    if (ds.size() == 1 && ds[0].oom && ds[0].oom->family == "described") {
      ++s.told;
    } else {
      ++s.parsed;
    }
    const Diagnosis* primary = &ds.back();
    if (e.contains("requested_printed") && e["requested_printed"].is_string()) {
      ++s.sized;
      const std::string printed = e["requested_printed"];
      const Diagnosis* match = nullptr;
      for (const auto& d : ds) {
        if (d.oom && d.oom->requested_bytes &&
            matches_printed(printed, *d.oom->requested_bytes,
                            d.oom->device == "mps" || d.oom->family == "paddle" || d.oom->subsystem == "r" ||
                                d.oom->subsystem == "catboost",
                            d.oom->dtype)) {
          match = &d;
        }
      }
      if (match) {
        ++s.sized_ok;
        primary = match;
      } else {
        s.misses.push_back(fmt::format("{}: requested '{}' not read (first report: {})", id, printed,
                                       ds.front().oom && ds.front().oom->requested_bytes
                                           ? std::to_string(*ds.front().oom->requested_bytes)
                                           : "none"));
      }
    }
    const std::string label = e["label"];
    const auto& f = primary->findings;
    if (dump) {  // OOMKIT_CORPUS_DUMP: one line per report, the primary diagnosis's ranking
      nlohmann::json row = {{"dir", dir.substr(kData.size())}, {"id", id}, {"label", label}};
      for (const auto& x : f) row["findings"].push_back({cause_name(x.category), x.score});
      std::vector<OomRecord> records;
      for (const auto& d : ds) {
        if (d.oom) records.push_back(*d.oom);
      }
      row["message_lines"] = message_lines(records);
      const WordPriorModel& prior = options.word_prior ? *options.word_prior : builtin_word_prior();
      // The word prior's own ranking, as diagnose_log() reads it.
      for (const auto& w : prior.rank(log, message_lines(parse_oom_log(log)))) {
        row["prior"].push_back({cause_name(w.cause), w.similarity});
      }
      *dump << row.dump() << "\n";
    }
    const bool t1 = !f.empty() && cause_name(f[0].category) == label;
    bool t3 = false;
    for (size_t k = 0; k < f.size() && k < 3; ++k) t3 = t3 || cause_name(f[k].category) == label;
    s.top1 += t1;
    s.top3 += t3;
    if (!t1) {
      std::string ranked;
      const char* v = std::getenv("OOMKIT_CORPUS_VERBOSE");
      if (v && std::string(v) == "2") {  // the ranking with scores and the deciding evidence
        for (size_t k = 0; k < f.size() && k < 4; ++k) ranked += fmt::format(" | {} {:.2f}", cause_name(f[k].category), f[k].score);
        for (const auto& dv : primary->deciding) ranked += fmt::format("\n        line {} {:+.2f} {}", dv.line, dv.weight, dv.what);
      }
      s.misses.push_back(fmt::format("{}: label {}, ranked {}{}{}", id, label, f.empty() ? "nothing" : cause_name(f[0].category),
                                     t3 ? " (label in top 3)" : "", ranked));
    }
  }
}

}  // namespace

TEST(DiagnoseCorpus, ScoresMeetTheBar) {
  const char* part_env = std::getenv("OOMKIT_CORPUS_PART");
  const std::string part = part_env ? part_env : "all";
  struct Part {
    std::string name;
    std::string dir;
    bool scored;
    Score score;
  };
  // Every part on disk: tests/data/oom-corpus/ ("tuned") and each oom-corpus-<name>/, in the
  // order of their numbers (held2 .. held18 ..). A held-apart part is scored only when asked for.
  std::vector<Part> parts = {{"tuned", "oom-corpus/", part == "all" || part == "tuned" || part == "tuning", {}}};
  std::vector<std::pair<int, std::string>> held;
  for (const auto& entry : std::filesystem::directory_iterator(kData)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.rfind("oom-corpus-held", 0) == 0 && name.size() > 15 &&
        name.find_first_not_of("0123456789", 15) == std::string::npos) {
      held.emplace_back(std::stoi(name.substr(15)), name.substr(11));
    }
  }
  std::sort(held.begin(), held.end());
  std::string names = "tuned";
  for (const auto& [n, name] : held) {
    const bool tuned_on = name == "held2" || name == "held3";  // see the parts above
    const bool scored = part == name || (tuned_on && part == "all") || (name == "held2" && part == "tuning");
    parts.push_back({name, "oom-corpus-" + name + "/", scored, {}});
    names += ", " + name;
  }
  const bool known = part == "all" || part == "tuning" ||
                     std::any_of(parts.begin(), parts.end(), [&](const Part& p) { return p.name == part; });
  ASSERT_TRUE(known) << "OOMKIT_CORPUS_PART: " << names << ", tuning or all";
  // OOMKIT_CORPUS_CROSS=1: each part is scored with a word prior trained on the other parts the
  // built-in model trains on (leave-one-part-out), not the built-in one, which has seen it.
  const bool cross = std::getenv("OOMKIT_CORPUS_CROSS") != nullptr;
  // OOMKIT_CORPUS_NO_PRIOR=1: no word prior at all (the rules alone), to measure what it adds.
  const bool no_prior = std::getenv("OOMKIT_CORPUS_NO_PRIOR") != nullptr;
  const WordPriorModel none;
  // OOMKIT_CORPUS_DESCRIBED=1: rank each text in which no report is found as one, as
  // `oomkit diagnose --described` does (every corpus text reports an OOM); parse still counts
  // only the reports found without being told ("told" counts the others).
  const bool described = std::getenv("OOMKIT_CORPUS_DESCRIBED") != nullptr;
  // OOMKIT_CORPUS_DUMP=FILE: each scored report's label and ranking as one JSON line, for studies.
  std::optional<std::ofstream> dump;
  if (const char* d = std::getenv("OOMKIT_CORPUS_DUMP")) {
    dump.emplace(d);
    ASSERT_TRUE(*dump) << "OOMKIT_CORPUS_DUMP: cannot write " << d;
  }
  for (auto& p : parts) {
    if (!p.scored) continue;
    DiagnoseOptions options;
    WordPriorModel model;
    if (cross) {
      std::vector<std::string> others;
      const std::string self = p.dir.substr(0, p.dir.size() - 1);
      for (const auto& t : word_prior_corpus_parts()) {
        if (t != self) others.push_back(t);
      }
      model = WordPriorModel::train(read_labelled_corpus(kData, others));
      options.word_prior = &model;
    }
    if (no_prior) options.word_prior = &none;
    options.described = described;
    score_dir(kData + p.dir, p.score, options, dump ? &*dump : nullptr);
  }
  auto pct = [](int a, int b) { return b ? 100.0 * a / b : 100.0; };
  for (const auto& p : parts) {
    const Score& s = p.score;
    if (s.n == 0) continue;
    fmt::print("{:<11} n={:<3} parse {:5.1f}%  requested {:5.1f}% ({}/{})  top-1 {:5.1f}%  top-3 {:5.1f}%{}\n", p.name, s.n,
               pct(s.parsed, s.n), pct(s.sized_ok, s.sized), s.sized_ok, s.sized, pct(s.top1, s.n), pct(s.top3, s.n),
               described ? fmt::format("  (told {})", s.told) : "");
    if (std::getenv("OOMKIT_CORPUS_VERBOSE")) {
      for (const auto& m : s.misses) fmt::print("    {}\n", m);
    }
  }
  for (const auto& p : parts) {
    const Score& s = p.score;
    if (s.n == 0) continue;
    EXPECT_EQ(s.parsed, s.n) << p.name;
    EXPECT_EQ(s.sized_ok, s.sized) << p.name;
    EXPECT_GE(pct(s.top1, s.n), 80.0) << p.name;
    EXPECT_GE(pct(s.top3, s.n), 95.0) << p.name;
  }
}
