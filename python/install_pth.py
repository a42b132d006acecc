"""Writes sloshlab.pth into the user's site-packages, naming the folder that holds the
built module, so that `import sloshlab` works from any directory (python/CMakeLists.txt).
Prints one line; never fails the build (a read-only home only loses the convenience)."""
import os
import site
import sys

folder = os.path.abspath(sys.argv[1])
try:
    target = site.getusersitepackages()
    os.makedirs(target, exist_ok=True)
    path = os.path.join(target, "sloshlab.pth")
    if not (os.path.exists(path) and open(path).read().strip() == folder):
        with open(path + ".tmp", "w") as out:
            out.write(folder + "\n")
        os.replace(path + ".tmp", path)
        print(f"sloshlab: {path} puts {folder} on the Python path")
except OSError as error:
    print(f"sloshlab: could not write the .pth file ({error}); use PYTHONPATH={folder}")
