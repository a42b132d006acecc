// The video frame lock (app/frame_lock.h): frames due at every multiple of the period
// after the start, each published only once the UI took the one before, and a new
// simulation recorded on without a gap or a repeated frame number.
#include "frame_lock.h"

#include <gtest/gtest.h>

namespace sloshlab::app {
namespace {

TEST(FrameLock, FramesComeOneAfterAnotherOnlyOnceTheUiTookTheLast) {
  FrameLock lock;
  EXPECT_FALSE(lock.on());
  EXPECT_FALSE(lock.untaken());
  lock.start(0.04, 7, 1.5);
  ASSERT_TRUE(lock.on());
  EXPECT_DOUBLE_EQ(lock.nextTime(), 1.5);  // frame 0: the state when recording starts
  EXPECT_FALSE(lock.publishable());        // not there yet
  lock.setReady(true);
  ASSERT_TRUE(lock.publishable());
  EXPECT_EQ(lock.publish(), 0);
  EXPECT_FALSE(lock.ready());
  EXPECT_DOUBLE_EQ(lock.nextTime(), 1.54);
  lock.setReady(true);  // the simulation reached frame 1 while the UI still draws frame 0
  EXPECT_TRUE(lock.untaken());
  EXPECT_FALSE(lock.publishable());
  lock.taken(6, 0);  // an earlier recording's frame is not this one's
  EXPECT_FALSE(lock.publishable());
  lock.taken(7, 0);
  ASSERT_TRUE(lock.publishable());
  EXPECT_EQ(lock.publish(), 1);
  EXPECT_DOUBLE_EQ(lock.nextTime(), 1.5 + 2 * 0.04);
}

TEST(FrameLock, ANewSimulationRecordsOnFromItsOwnTime) {
  FrameLock lock;
  lock.start(0.1, 1, 0.0);
  lock.setReady(true);
  lock.publish();
  lock.taken(1, 0);
  lock.setReady(true);
  EXPECT_EQ(lock.publish(), 1);
  lock.restartAt(0.0);  // a loaded state back at t = 0: its next frame is now, numbered 2
  EXPECT_DOUBLE_EQ(lock.nextTime(), 0.0);
  lock.taken(1, 1);
  lock.setReady(true);
  EXPECT_EQ(lock.publish(), 2);
  EXPECT_DOUBLE_EQ(lock.nextTime(), 0.1);
  lock.start(0.0, 2, 0.3);  // period 0 ends the lock
  EXPECT_FALSE(lock.on());
  EXPECT_FALSE(lock.untaken());
}

}  // namespace
}  // namespace sloshlab::app
