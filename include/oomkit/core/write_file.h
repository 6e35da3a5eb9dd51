// Checked, durable file writes. Every write oomkit makes to a file the user keeps (checkpoint,
// summary.json, report, trace) goes through here, so a full disk or a read-only folder is an
// InputError naming the path and the system's reason (exit 2), never a silent 0-byte file.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace oomkit {

/// Writes the concatenation of `parts` to `path` atomically and durably: to `path`.tmp,
/// fsync'ed, renamed over `path`, then `path`'s folder fsync'ed (so the rename itself survives
/// a power loss). On any failure `path`.tmp is removed, `path` keeps its previous content, and
/// InputError(field, "<path>: <step> failed: <strerror>") is thrown.
void write_file_durably(const std::string& path, std::initializer_list<std::string_view> parts,
                        const std::string& field);

/// fsyncs the folder holding `path` (the parent, or "." for a bare name). Returns false on
/// failure (some file systems refuse fsync on folders; callers treat that as best effort).
bool sync_parent_directory(const std::string& path);

}  // namespace oomkit
