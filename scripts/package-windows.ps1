# Packages a Windows build the way releases are published: torii-<tag>-windows-x86_64.zip
# (torii.exe and README.md in a directory of that name) and its .sha256 in sha256sum format.
# Used by .github/workflows/release.yml (the `dist` build) and test.yml (a release build).
param(
  [Parameter(Mandatory)] [string]$Tag,
  [Parameter(Mandatory)] [string]$Exe,
  [Parameter(Mandatory)] [string]$Out
)
$ErrorActionPreference = 'Stop'

$name = "torii-$Tag-windows-x86_64"
New-Item -ItemType Directory -Force -Path "$Out/$name" | Out-Null
Copy-Item $Exe "$Out/$name/torii.exe"
Copy-Item README.md "$Out/$name/"
Compress-Archive -Path "$Out/$name" -DestinationPath "$Out/$name.zip"
Remove-Item -Recurse "$Out/$name"
$hash = (Get-FileHash "$Out/$name.zip" -Algorithm SHA256).Hash.ToLower()
# sha256sum format, with a Unix line ending.
[IO.File]::WriteAllText("$Out/$name.zip.sha256", "$hash  $name.zip`n")
