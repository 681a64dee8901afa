package main

import "runtime/debug"

// version is the module version go install recorded (in a git checkout,
// the pseudo-version Go stamps from it), with the VCS revision when
// stamped; "devel" for a build without them (-buildvcs=false reports
// "(devel)") or without build info.
func version() string {
	return versionOf(debug.ReadBuildInfo())
}

func versionOf(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12]
			for _, m := range bi.Settings {
				if m.Key == "vcs.modified" && m.Value == "true" {
					v += ", modified"
				}
			}
			v += ")"
		}
	}
	return v
}
