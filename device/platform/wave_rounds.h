// wave_match by rounds, for platforms with no hardware match: the lowest unmatched lane's key is
// broadcast, once per distinct key. Every lane of m stays for every round (an AMD wave pays the
// rounds anyway), so each collective runs on exactly m. Included by each platform's platform.h
// after its wave_shfl and wave_ballot.
#pragma once

namespace gio {
namespace plat {

GIO_DEVICE_INLINE wave_mask wave_match_rounds(wave_mask m, unsigned long long key) {
  wave_mask mine = 0;
  for (wave_mask left = m; left;) {
    const unsigned long long k = wave_shfl(m, key, wave_lowest(left));
    const wave_mask same = wave_ballot(m, key == k);
    if (key == k) mine = same;
    left &= ~same;
  }
  return mine;
}

}  // namespace plat
}  // namespace gio
