#include "oomkit/core/write_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "oomkit/core/error.h"

namespace oomkit {

bool sync_parent_directory(const std::string& path) {
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

void write_file_durably(const std::string& path, std::initializer_list<std::string_view> parts,
                        const std::string& field) {
  const std::string tmp = path + ".tmp";
  auto fail = [&](const char* step, int err, int fd) {
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    throw InputError(field, path + ": " + step + " failed: " + std::strerror(err),
                     err == ENOSPC || err == EFBIG || err == EDQUOT ? "free space on that disk, or write elsewhere" : "");
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("creating the .tmp file", errno, -1);
  for (std::string_view part : parts) {
    const char* p = part.data();
    size_t left = part.size();
    while (left > 0) {
      const ssize_t n = ::write(fd, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("writing", errno, fd);
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
  }
  if (::fsync(fd) != 0) fail("fsync", errno, fd);
  if (::close(fd) != 0) fail("close", errno, -1);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("renaming the .tmp file into place", errno, -1);
  sync_parent_directory(path);  // best effort: the data itself is already on disk
}

}  // namespace oomkit
