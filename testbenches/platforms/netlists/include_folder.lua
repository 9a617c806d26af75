-- Including a folder names this line.
include("include")
